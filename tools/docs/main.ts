// `npm run docs`: rewrites every section of the documents generated from the code (section.ts), one module per
// table beside this one. A unit test (test/unit/docs/generated.test.ts) fails while any is stale.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DIMENSIONS_SECTION } from './dimensions.js';
import { ENVIRONMENT_SECTION } from './environment.js';
import { EXIT_CODES_SECTION } from './exitCodes.js';
import { FLAG_INDICATORS_SECTION } from './flagIndicators.js';
import { INDEXER_ENVIRONMENT_SECTION } from './indexerEnvironment.js';
import { LIST_FILTERS_SECTION } from './listFilters.js';
import { OUTPUT_FORMATS_SECTION } from './outputFormats.js';
import { ALERTS_SECTION, SLOS_SECTION } from './monitoring.js';
import { REPO_ROOT, withSection, type GeneratedSection } from './section.js';

export const GENERATED_SECTIONS: readonly GeneratedSection[] = [
  DIMENSIONS_SECTION,
  ENVIRONMENT_SECTION,
  EXIT_CODES_SECTION,
  FLAG_INDICATORS_SECTION,
  INDEXER_ENVIRONMENT_SECTION,
  LIST_FILTERS_SECTION,
  OUTPUT_FORMATS_SECTION,
  SLOS_SECTION,
  ALERTS_SECTION,
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const section of GENERATED_SECTIONS) {
    for (const name of section.documents) {
      const path = `${REPO_ROOT}${name}`;
      const before = await readFile(path, 'utf8');
      const after = withSection(section, before, name);
      if (after !== before) await writeFile(path, after);
      process.stdout.write(`${name} (${section.name}): ${after === before ? 'up to date' : 'rewritten'}\n`);
    }
  }
}
