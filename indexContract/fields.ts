// Sub-fields of mappings/ppas.json that queries address by name. A test checks each against the mapping, so a
// renamed sub-field fails there rather than as a query that silently matches nothing.

/** Folded project name as one lowercase keyword: exact-name and whole-name typo matches. */
export const NAME_EXACT_FIELD = 'name_folded.exact';
/** Reference code, lowercased keyword: "sn-sol-2018-001" finds "SN-SOL-2018-001". */
export const REFERENCE_CODE_LOWERCASE_FIELD = 'reference_code.lc';
/** Folded developer name as one keyword: the substring (wildcard) filter. */
export const DEVELOPER_KEYWORD_FIELD = 'developer_folded.kw';

/** The name's canonical words (text): numerals, abbreviations and punctuation written one way. Not a sub-field. */
export const NAME_CANONICAL_FIELD = 'name_canonical';
/** The canonical words without spaces (keyword): the whole name however it is spaced or written. */
export const NAME_COMPACT_FIELD = 'name_compact';
/** Adjacent canonical words written as one (keywords): a typed word that joins two name words. */
export const NAME_JOINED_FIELD = 'name_joined';

/** Each name word of five letters or more without its first letter (keywords): a first letter dropped ("Olar"). */
export const NAME_WITHOUT_FIRST_LETTER_FIELD = 'name_without_first_letter';

/** The technology's words and synonyms (text; TECHNOLOGY_WORDS in indexContract/text/canonical.ts). */
export const TECHNOLOGY_WORDS_FIELD = 'technology_words';
/** The country's English names (text; indexContract/text/countryNames.ts). */
export const COUNTRY_NAMES_FIELD = 'country_names';

/** Top-level fields queries address by name (a test checks each against the mapping). */
export const QUERIED_FIELDS = [
  NAME_CANONICAL_FIELD,
  NAME_COMPACT_FIELD,
  NAME_JOINED_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
  TECHNOLOGY_WORDS_FIELD,
  COUNTRY_NAMES_FIELD,
] as const;

/** Every prefix of every folded name word (keywords computed by the indexer): suggestions. Not a sub-field. */
export const NAME_PREFIXES_FIELD = 'name_prefixes';

export const QUERIED_SUB_FIELDS = [
  NAME_EXACT_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
  DEVELOPER_KEYWORD_FIELD,
] as const;
