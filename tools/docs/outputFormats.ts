// The output formats of the file answers (the export, a roll-up as CSV) as one markdown table, generated from the
// format table (src/export/formats.ts), in docs/api.md's export section.
import { OUTPUT_FORMATS, type OutputFormat } from '../../src/export/formats.js';
import { markdownTable, type GeneratedSection } from './section.js';

const ANSWERS: Record<keyof typeof OUTPUT_FORMATS, string> = {
  export: '`GET /api/v1/ppas/export`',
  statistics: '`GET /api/v1/ppas/statistics` with `group_by`',
};

export const OUTPUT_FORMATS_SECTION: GeneratedSection = {
  name: 'output-formats',
  source: 'src/export/formats.ts',
  documents: ['docs/api.md'],
  text: () =>
    markdownTable(
      ['Answer', '`format`', 'Content-Type', 'File name ends', 'Holds'],
      Object.entries(OUTPUT_FORMATS).flatMap(([answer, formats]) =>
        Object.entries(formats as Record<string, OutputFormat<never>>).map(([name, format]) => [
          ANSWERS[answer as keyof typeof OUTPUT_FORMATS],
          `\`${name}\``,
          `\`${format.contentType}\``,
          `\`.${format.extension}\``,
          format.doc,
        ]),
      ),
    ),
};
