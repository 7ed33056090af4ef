// Where `q` looks: the record's four text fields (through the folded copies the indexer writes), each with its
// boost and the typo rules a word is matched by there, and the descriptors (what the PPA is rather than what it is
// called). The list's query is built from this table and the highlighter marks by it.
import {
  COUNTRY_NAMES_FIELD,
  DEVELOPER_FOLDED_FIELD,
  LOCATION_FOLDED_FIELD,
  NAME_FOLDED_FIELD,
  REFERENCE_CODE_FOLDED_FIELD,
  TECHNOLOGY_WORDS_FIELD,
} from '../../indexContract/fields.js';
import type { TypoRules } from './typoRules.js';

export interface TextField {
  /** The record's (and the served item's) field. */
  record: 'project_name' | 'reference_code' | 'developer' | 'location';
  /** Its folded copy in the index (indexer/elasticsearch/buildDocument.ts). */
  folded: string;
  boost: number;
  /**
   * How a typed word matches a word of it: the name by every rule of the mode (typos, numerals and abbreviations
   * written the other way, joined and split words, dropped letters); the developer and the location by the
   * fuzziness alone; the reference code as typed only. A code is typed or pasted as it is (whole, word by word, or
   * its start as it is typed), and a fuzzy lookup over its words cost a sizeable share of Elasticsearch's time per
   * query for no relevance class (the figure: docs/performance.md).
   */
  rules: 'name' | Exclude<TypoRules, 'list' | 'suggest'>;
}

/** Project name and reference code above developer and location. */
export const TEXT_FIELD_TABLE: readonly TextField[] = [
  { record: 'project_name', folded: NAME_FOLDED_FIELD, boost: 3, rules: 'name' },
  { record: 'reference_code', folded: REFERENCE_CODE_FOLDED_FIELD, boost: 3, rules: 'exact' },
  { record: 'developer', folded: DEVELOPER_FOLDED_FIELD, boost: 1, rules: 'text' },
  { record: 'location', folded: LOCATION_FOLDED_FIELD, boost: 1, rules: 'text' },
];

const boosted = (field: string, boost: number): string => (boost === 1 ? field : `${field}^${boost}`);
/** A field's folded copy as multi_match names it, with its boost. */
export const boostedField = ({ folded, boost }: TextField): string => boosted(folded, boost);
/** The folded fields as multi_match names them, with their boosts. */
export const TEXT_FIELDS = TEXT_FIELD_TABLE.map(({ folded, boost }) => boosted(folded, boost));
/** The same fields and boosts as the record names them (a plain dynamic mapping of the records, for the bench). */
export const RECORD_TEXT_FIELDS = TEXT_FIELD_TABLE.map(({ record, boost }) => boosted(record, boost));
/** Where a typed word is looked for with typos: the fields whose rules allow any. */
export const TYPO_FIELDS = TEXT_FIELD_TABLE.filter(({ rules }) => rules !== 'exact').map(
  ({ folded, boost }) => boosted(folded, boost),
);
/** Each text field's rules, by the record's name of it. */
export const TEXT_FIELD_RULES = Object.fromEntries(
  TEXT_FIELD_TABLE.map(({ record, rules }) => [record, rules]),
) as Record<TextField['record'], TextField['rules']>;

/**
 * What the PPA is rather than what it is called: its technology's words and synonyms, its country's names. A
 * typed word may match them instead of the four fields.
 */
export const DESCRIPTOR_FIELDS = [TECHNOLOGY_WORDS_FIELD, COUNTRY_NAMES_FIELD];
