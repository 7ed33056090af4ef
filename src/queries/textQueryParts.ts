// The parts of the text query of `q` (src/queries/textQuery.ts), each a step of its tuning: the API uses them all,
// the relevance bench may leave later ones out to measure earlier ones again.

/**
 * The parts of the query, each a step in the order they were measured (tools/relevance/method.md). The API always uses all
 * of them; the relevance bench can leave later steps out to re-measure earlier ones.
 */
export interface TextQueryParts {
  /** The word as typed matches with its frequency blended over the fields (cross_fields), not per field. */
  crossFields: boolean;
  /** Typed words are looked up among the names' one-letter-dropped spellings (NAME_DROPPED_LETTER_FIELD). */
  droppedLetter: boolean;
  /** Typed words with one letter taken out are looked up among the name's words. */
  extraLetter: boolean;
  /** The whole name, and the name's start (phrase prefix), rank higher. */
  nameBonuses: boolean;
  /** The whole name but for one typo ranks higher. */
  nameWithTypo: boolean;
  /** All words in the name itself (typos allowed) rank higher. */
  allWordsInName: boolean;
  /**
   * Canonical forms (indexContract/text/canonical.ts): a typed word also matches the name's canonical words
   * (numerals either way, sector abbreviations, punctuation dropped), and the whole name matches on its compact
   * form; all words in the name are looked for among its canonical words.
   */
  canonical: boolean;
  /** A typed word may be two name words joined ("KafueGorge"), or two typed words one name word split. */
  joinedSplit: boolean;
  /**
   * Two typos: a typed word of six or seven letters one edit away from a name word with a letter dropped (two
   * typos, one of them a dropped letter, in a word of seven letters or more: fuzziness alone allows two edits only
   * from eight typed letters); the whole-name typo bonus on the compact form. (A two-typo whole-name bonus, fuzzy
   * 2 on the compact form, was left out for what it cost Elasticsearch: docs/performance.md, "Tried and not kept".)
   */
  twoTypos: boolean;
  /** The name starts with what was typed, however it is spaced or written (compact prefix): above typo matches. */
  compactPrefix: boolean;
  /**
   * A typed word may match the PPA's technology (its words and synonyms) or its country's English names
   * (DESCRIPTOR_FIELDS), as typed or (last word) as a prefix, for a constant below a name word.
   */
  descriptors: boolean;
  /** First-letter typos: a typed word of four letters or more looked up among the name words minus their first letter. */
  firstLetter: boolean;
}

export const ALL_PARTS: TextQueryParts = {
  crossFields: true,
  droppedLetter: true,
  extraLetter: true,
  nameBonuses: true,
  nameWithTypo: true,
  allWordsInName: true,
  canonical: true,
  joinedSplit: true,
  twoTypos: true,
  compactPrefix: true,
  descriptors: true,
  firstLetter: true,
};
