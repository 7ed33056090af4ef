// The API's environment variables as one markdown table, generated from their declarations (src/config.ts), in
// the documents that show it: README.md, docs/api.md and docs/operations.md.
import { CONFIG_VARIABLES_SPEC } from '../../src/config.js';
import { markdownTable, type GeneratedSection } from './section.js';

/** Variables as a table, a row each in the order given: name, default ("unset" when none), meaning. */
export function variablesTable(
  variables: readonly { name: string; default?: string | undefined; meaning: string }[],
): string {
  return markdownTable(
    ['Variable', 'Default', 'Meaning'],
    variables.map((variable) => [
      `\`${variable.name}\``,
      variable.default === undefined ? 'unset' : `\`${variable.default}\``,
      variable.meaning,
    ]),
  );
}

export const ENVIRONMENT_SECTION: GeneratedSection = {
  name: 'environment',
  source: 'src/config.ts',
  documents: ['README.md', 'docs/api.md', 'docs/operations.md'],
  text: () =>
    variablesTable(
      Object.entries(CONFIG_VARIABLES_SPEC).map(([name, spec]) => ({
        name,
        default: spec.default,
        meaning: spec.meaning,
      })),
    ),
};
