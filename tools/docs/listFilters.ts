// The list's filters as one markdown table, generated from their declarations (src/params/filters.ts), in
// docs/api.md's list parameters.
import { LIST_FILTERS } from '../../src/params/filters.js';
import { markdownTable, type GeneratedSection } from './section.js';

export const LIST_FILTERS_SECTION: GeneratedSection = {
  name: 'list-filters',
  source: 'src/params/filters.ts',
  documents: ['docs/api.md'],
  text: () =>
    markdownTable(
      ['Param', 'Type and bounds', 'Meaning'],
      Object.values(LIST_FILTERS).map((filter) => [
        `\`${filter.name}\``,
        filter.doc.type,
        filter.doc.meaning,
      ]),
    ),
};
