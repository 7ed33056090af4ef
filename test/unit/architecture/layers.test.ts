// The layer rules of eslint.config.js hold: an import that runs back up a layer of src/ (or of indexer/) is an
// ESLint error, and the imports the layers allow are not. Linted as text placed in the repository's own files, so
// the rules are the ones `npm run lint` applies.
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of the layer rule for `code` linted as if it were the file `path`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('architecture: the layers of src/', function () {
  this.timeout(60_000);

  it('refuses an import that runs back up a layer', async () => {
    const cases: [string, string][] = [
      ['src/queries/listSearch.ts', "import { OPERATIONS } from '../operations/catalog.js';"],
      ['src/gateway/gateway.ts', "import { presentList } from '../present/list.js';"],
      ['src/gateway/gateway.ts', "import { buildDetailLookup } from '../queries/detailSearch.js';"],
      [
        'src/http/problemResponses.ts',
        "import { SearchUnavailableError } from '../gateway/searchErrors.js';",
      ],
      ['src/params/list.ts', "import { buildListSearch } from '../queries/listSearch.js';"],
      [
        'src/wire/responseCache.ts',
        "import type { GenerationWatcher } from '../liveState/generationWatcher.js';",
      ],
      ['src/present/list.ts', "import { buildOpenApiSpec } from '../operations/openApi.js';"],
      ['src/liveState/lookups.ts', "import { presentPpa } from '../present/ppa.js';"],
      ['src/metrics/metrics.ts', "import { loadConfig } from '../config.js';"],
      ['src/matching/textFields.ts', "import { buildTextQuery } from '../queries/textQuery.js';"],
      [
        'src/matching/highlight/highlighter.ts',
        "import { HighlightsSchema } from '../../present/highlights.js';",
      ],
    ];
    for (const [path, code] of cases) {
      const errors = await layerErrors(path, `${code}\nexport {};\n`);
      expect(errors, `${path}: ${code}`).to.have.length(1);
      expect(errors[0]).to.include('src/ imports point down only');
    }
  });

  it('allows the imports that point down', async () => {
    const cases: [string, string][] = [
      ['src/operations/listPpas.ts', "import { buildListSearch } from '../queries/listSearch.js';"],
      ['src/present/list.ts', "import { listQuery } from '../params/list.js';"],
      ['src/gateway/searchErrors.ts', "import { BadRequestError } from '../http/problem.js';"],
      ['src/liveState/lookups.ts', "import { SearchUnavailableError } from '../gateway/searchErrors.js';"],
      ['src/queries/textQuery.ts', "import { TEXT_FIELDS } from '../matching/textFields.js';"],
      ['src/present/list.ts', "import { highlighter } from '../matching/highlight/highlighter.js';"],
    ];
    for (const [path, code] of cases) {
      expect(await layerErrors(path, `${code}\nexport {};\n`), `${path}: ${code}`).to.deep.equal([]);
    }
  });
});
