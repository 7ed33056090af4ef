// The red flags' indicators as one markdown table, generated from their declarations (indexContract/flags.ts), in
// docs/flags.md.
import { FLAG_INDICATORS } from '../../indexContract/flags.js';
import { markdownTable, type GeneratedSection } from './section.js';

export const FLAG_INDICATORS_SECTION: GeneratedSection = {
  name: 'flag-indicators',
  source: 'indexContract/flags.ts',
  documents: ['docs/flags.md'],
  text: () =>
    markdownTable(
      ['Code', 'Title', 'Raised when', 'Decidable when (counts in `computable`)', 'Reference'],
      FLAG_INDICATORS.map((indicator) => [
        `\`${indicator.code}\``,
        indicator.title,
        indicator.raised_when,
        indicator.decidable_when,
        indicator.reference,
      ]),
    ),
};
