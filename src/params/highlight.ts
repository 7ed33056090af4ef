// `highlight`: the list and suggest both take it (src/matching/highlight/).
import Type from 'typebox';
import { withDefault } from './declare.js';

export const HIGHLIGHT_PARAMETER = withDefault(
  Type.Unsafe<'true' | 'false'>({
    type: 'string',
    enum: ['true', 'false'],
    description:
      'true: each item with a q gains `highlights`, why it matched: for each searched field that matched, the ' +
      '[start, end) spans of the served value (UTF-16 code units, as String.prototype.slice takes them) of the words ' +
      'a word of q names, typos, accents, joined or split words, numerals and abbreviations included; ' +
      'technology/country_code true when a word named those instead. false (the default) or absent: no highlights.',
  }),
  'false',
);
