// Fields of mappings/ppas.json that queries address by name: the ones the indexer derives from the record
// (indexer/elasticsearch/buildDocument.ts writes each under the name declared here) and sub-fields. A test checks
// each against the mapping, so a renamed field fails there rather than as a query that silently matches nothing;
// the compiler checks the top-level ones against the indexed document (IndexDocument).
import type { IndexDocument } from './document.js';

/** Folded project name as one lowercase keyword: exact-name and whole-name typo matches. */
export const NAME_EXACT_FIELD = 'name_folded.exact';
/** Reference code, lowercased keyword: "sn-sol-2018-001" finds "SN-SOL-2018-001". */
export const REFERENCE_CODE_LOWERCASE_FIELD = 'reference_code.lc';
/** Folded developer name as one keyword: the substring (wildcard) filter. */
export const DEVELOPER_KEYWORD_FIELD = 'developer_folded.kw';

/** The four text fields folded (indexContract/text/fold.ts): where a word of `q` is looked for as typed. */
export const NAME_FOLDED_FIELD = 'name_folded';
export const REFERENCE_CODE_FOLDED_FIELD = 'reference_code_folded';
export const DEVELOPER_FOLDED_FIELD = 'developer_folded';
export const LOCATION_FOLDED_FIELD = 'location_folded';

/** The name's canonical words (text): numerals, abbreviations and punctuation written one way. Not a sub-field. */
export const NAME_CANONICAL_FIELD = 'name_canonical';
/** The canonical words without spaces (keyword): the whole name however it is spaced or written. */
export const NAME_COMPACT_FIELD = 'name_compact';
/** Adjacent canonical words written as one (keywords): a typed word that joins two name words. */
export const NAME_JOINED_FIELD = 'name_joined';

/** Each name word of TYPO_MIN_LETTERS (text/typos.ts) or more with one letter but the first dropped (keywords): "Slar". */
export const NAME_DROPPED_LETTER_FIELD = 'name_dropped_letter';
/** Each name word of TYPO_MIN_LETTERS or more without its first letter (keywords): a first letter dropped ("Olar"). */
export const NAME_WITHOUT_FIRST_LETTER_FIELD = 'name_without_first_letter';
/** Every prefix of every folded name word (keywords computed by the indexer): suggestions. Not a sub-field. */
export const NAME_PREFIXES_FIELD = 'name_prefixes';

/** The technology's words and synonyms (text; TECHNOLOGY_WORDS in indexContract/text/canonical.ts). */
export const TECHNOLOGY_WORDS_FIELD = 'technology_words';
/** The country's English names (text; indexContract/text/countryNames.ts). */
export const COUNTRY_NAMES_FIELD = 'country_names';

/** The words `q` is looked for among (keywords with doc values; indexContract/text/vocabulary.ts): did you mean. */
export const VOCABULARY_FIELD = 'vocabulary';

/** Top-level fields queries address by name (a test checks each against the mapping). */
export const QUERIED_FIELDS = [
  NAME_FOLDED_FIELD,
  REFERENCE_CODE_FOLDED_FIELD,
  DEVELOPER_FOLDED_FIELD,
  LOCATION_FOLDED_FIELD,
  NAME_CANONICAL_FIELD,
  NAME_COMPACT_FIELD,
  NAME_JOINED_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
  NAME_PREFIXES_FIELD,
  TECHNOLOGY_WORDS_FIELD,
  COUNTRY_NAMES_FIELD,
  VOCABULARY_FIELD,
] as const satisfies readonly (keyof IndexDocument)[];

export const QUERIED_SUB_FIELDS = [
  NAME_EXACT_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
  DEVELOPER_KEYWORD_FIELD,
] as const;
