// The indexer's exit codes as a markdown table in docs/operations.md, generated from their one declaration
// (indexer/exitCodes.ts), which --help prints too.
import { EXIT_CODE_TABLE } from '../../indexer/exitCodes.js';
import { markdownTable, type GeneratedSection } from './section.js';

export const EXIT_CODES_SECTION: GeneratedSection = {
  name: 'exit-codes',
  source: 'indexer/exitCodes.ts',
  documents: ['docs/operations.md'],
  text: () =>
    markdownTable(
      ['Code', 'Meaning'],
      EXIT_CODE_TABLE.map(({ code, meaning }) => [`\`${code}\``, meaning]),
    ),
};
