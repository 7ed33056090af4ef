// The weights of the clauses of `q` (src/queries/textQuery.ts), each tuned against the relevance suite (npm run
// relevance; tools/relevance/method.md): how much each way a word can match counts beside the others.

/** A word matched through a typo counts this much of the word matched as typed. */
export const TYPO_WEIGHT = 0.2;
/** The whole query is the name's own phrase. */
export const PHRASE_BOOST = 10;
/** The name starts with the query, its last word still being typed. */
export const PHRASE_PREFIX_BOOST = 5;
/** The query is the whole project name (case, accents and spacing aside): those records first. */
export const EXACT_NAME_BOOST = 100;
/** The query is the whole project name but for one typo. */
export const NAME_WITH_TYPO_BOOST = 50;
/** A typed word that is a name word with one letter doubled or inserted ("Viitória"): above other typo matches. */
export const EXTRA_LETTER_BOOST = 1;
/** Large enough that an exact reference code outranks any combination of the other clauses. */
export const REFERENCE_CODE_BOOST = 10_000;
/**
 * A `q` with operators that is, as written, a PPA's whole name or reference code (a name pasted: `PLTU -Jeneponto
 * I & II`): above everything else, the code: qualifier's exact code included.
 */
export const PASTED_NAME_BOOST = 100_000;
/** A dropped-letter match: a typo (TYPO_WEIGHT) in the name (field boost 3). */
export const DROPPED_LETTER_BOOST = 0.6;
/** A typed word matched through the name's canonical words (numerals, abbreviations, punctuation): as a name word. */
export const CANONICAL_WORD_BOOST = 3;
/** A typed word that is two name words joined, or half of a name word split in two. */
export const JOINED_WORD_BOOST = 3;
/** The compact name starts with the compact query (NAME_START_MIN_LETTERS): above a whole-name typo match. */
export const NAME_START_BOOST = 60;
/** A typed word of six or seven letters one edit from a name word's dropped-letter spelling: two typos. */
export const TWO_TYPOS_WORD_BOOST = 0.3;
/**
 * A typed word matched by the technology or the country (a constant, whatever the word's frequency): below a
 * word of the name (field boost 3, about 1.5 and up) so that names that say it rank first.
 */
export const DESCRIPTOR_WORD_BOOST = 1;
/** A first letter dropped ("Olar" for "Solar"): a typo in the name, as DROPPED_LETTER_BOOST. */
export const FIRST_LETTER_DROPPED_BOOST = 0.6;
