// The `highlights` member of a list item or a suggestion as the API declares it. What is marked is the matching
// model's (src/matching/highlight/): this module only says how it is served.
import type { Highlights, Span } from '../matching/highlight/itemHighlights.js';
import { Type } from '../wire/bodySchema.js';

const spansSchema = (field: string) =>
  Type.Array(
    Type.Unsafe<Span>({
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 2,
      maxItems: 2,
      description: '[start, end): start inclusive, end exclusive, start < end.',
    }),
    {
      minItems: 1,
      description:
        `[start, end) spans of ${field} as served that matched a word of q, in UTF-16 code units ` +
        '(String.prototype.slice); sorted, never overlapping.',
    },
  );

/** The `highlights` member of a list item or a suggestion (only with highlight=true and a q). */
export const HighlightsSchema = Type.Unsafe<Highlights>({
  type: 'object',
  additionalProperties: false,
  description:
    'Only with highlight=true and a q: why the PPA matched. For each searched field of the item that a word of q ' +
    'names (typo, accents, joined or split words, numerals and abbreviations written the other way, the word ' +
    'being typed included), the spans of the words it names; technology/country_code true when a word of q ' +
    "named the PPA's technology or country instead. Only fields the item carries. {} when nothing can be marked.",
  properties: {
    project_name: spansSchema('project_name'),
    developer: spansSchema('developer'),
    location: spansSchema('location'),
    reference_code: spansSchema('reference_code'),
    technology: Type.Literal(true),
    country_code: Type.Literal(true),
  },
});
