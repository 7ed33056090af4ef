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

/** Every prefix of every folded name word (keywords computed by the indexer): suggestions. Not a sub-field. */
export const NAME_PREFIXES_FIELD = 'name_prefixes';

export const QUERIED_SUB_FIELDS = [
  NAME_EXACT_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
  DEVELOPER_KEYWORD_FIELD,
] as const;
