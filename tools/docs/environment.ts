// The API's environment variables as one markdown table, generated from their declarations (src/config.ts), in
// the documents that show it: README.md, docs/api.md and docs/operations.md.
import { CONFIG_VARIABLES_SPEC } from '../../src/config.js';
import { markdownTable, type GeneratedSection } from './section.js';

export const ENVIRONMENT_SECTION: GeneratedSection = {
  name: 'environment',
  source: 'src/config.ts',
  documents: ['README.md', 'docs/api.md', 'docs/operations.md'],
  /** One row per variable, in the order they are declared. */
  text: () =>
    markdownTable(
      ['Variable', 'Default', 'Meaning'],
      Object.entries(CONFIG_VARIABLES_SPEC).map(([name, spec]) => [
        `\`${name}\``,
        spec.default === undefined ? 'unset' : `\`${spec.default}\``,
        spec.meaning,
      ]),
    ),
};
