// docs/api.md is the human-readable reference of the API; the OpenAPI document is what the API serves. This keeps
// the two in step: every path and every query parameter the OpenAPI document lists is named in docs/api.md. The
// tables of what `q` matches are checked against the index contract they describe.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { buildOpenApiSpec } from '../../../src/operations/openApi.js';
import { TECHNOLOGY_WORDS } from '../../../indexContract/text/canonical.js';
import { COUNTRY_ALIASES } from '../../../indexContract/text/countryNames.js';

const reference = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const spec = buildOpenApiSpec();

interface Parameter {
  name: string;
  in: string;
}

describe('docs/api.md against the OpenAPI document', () => {
  it('names every path', () => {
    for (const path of Object.keys(spec.paths)) {
      expect(reference, path).to.include(path.replace(/\{slug\}/, '{slug}'));
    }
  });

  it('names every query parameter of every operation', () => {
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const operation of Object.values(operations as Record<string, { parameters?: Parameter[] }>)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'query') continue;
          expect(reference, `${path} ${parameter.name}`).to.include(`\`${parameter.name}\``);
        }
      }
    }
  });
});

/** The rows of the two-column markdown table under the header row `header`: first cell → second cell. */
function tableRows(header: string): Map<string, string> {
  const lines = reference.split('\n');
  const start = lines.indexOf(header);
  expect(start, header).to.be.at.least(0);
  const rows = new Map<string, string>();
  for (const line of lines.slice(start + 2)) {
    const cells = /^\| `([^`]+)` \| (.+) \|$/u.exec(line);
    if (!cells) break;
    rows.set(cells[1] ?? '', cells[2] ?? '');
  }
  return rows;
}

describe('docs/api.md: what q matches, against the index contract', () => {
  it('lists every technology word of TECHNOLOGY_WORDS, as written', () => {
    const rows = tableRows('| `technology` | also matched by |');
    expect([...rows.keys()]).to.deep.equal(Object.keys(TECHNOLOGY_WORDS));
    for (const [token, words] of Object.entries(TECHNOLOGY_WORDS)) {
      expect(rows.get(token), token).to.equal(words.join(', '));
    }
  });

  it('lists every country alias of COUNTRY_ALIASES', () => {
    const rows = tableRows('| `country_code` | also named |');
    expect([...rows.keys()]).to.deep.equal(Object.keys(COUNTRY_ALIASES));
    for (const [code, names] of Object.entries(COUNTRY_ALIASES))
      expect(rows.get(code), code).to.equal(names.join(', '));
  });
});
