// Full-text relevance for `q`, kept apart so it can be tuned against the relevance suite (npm run relevance)
// without touching the rest of the query. Documents hold folded copies of the text
// (indexer/elasticsearch/buildDocument.ts); the query is folded the same way, so "Sao Joao" meets "São João" without an
// asciifolding filter in Elasticsearch.
import type { estypes } from '@elastic/elasticsearch';
import { droppedLetterSpellings } from '../../indexContract/text/typos.js';
import { canonicalWords, compactForm } from '../../indexContract/text/canonical.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';
import { pastedNameForms } from '../matching/pastedName.js';
import {
  NAME_CANONICAL_FIELD,
  NAME_COMPACT_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_EXACT_FIELD,
  NAME_FOLDED_FIELD,
  NAME_JOINED_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
} from '../../indexContract/fields.js';
import {
  boostedField,
  DESCRIPTOR_FIELDS,
  TEXT_FIELD_TABLE,
  TEXT_FIELDS,
  TYPO_FIELDS,
  type TextField,
} from '../matching/textFields.js';
import {
  isPlainWord,
  parseQuery,
  plainWordsOf,
  type Clause,
  type ParsedQuery,
  type Term,
} from '../matching/queryText.js';
import {
  ALL_WORDS_PREFIX_LENGTH,
  DROPPED_LETTER_MIN_LETTERS,
  FIRST_LETTER_AS_TYPED,
  FUZZINESS,
  JOINED_MIN_LETTERS,
  MAX_TYPO_WORD_LETTERS,
  NAME_START_MIN_LETTERS,
  ONE_TYPO,
  TWO_TYPOS_WORD_LETTERS,
  typoTolerance,
} from '../matching/typoRules.js';

type Query = estypes.QueryDslQueryContainer;

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
const TWO_TYPOS_WORD = new RegExp(`^\\p{L}{${TWO_TYPOS_WORD_LETTERS.join(',')}}$`, 'u');
/**
 * A typed word matched by the technology or the country (a constant, whatever the word's frequency): below a
 * word of the name (field boost 3, about 1.5 and up) so that names that say it rank first.
 */
export const DESCRIPTOR_WORD_BOOST = 1;
/** A first letter dropped ("Olar" for "Solar"): a typo in the name, as DROPPED_LETTER_BOOST. */
export const FIRST_LETTER_DROPPED_BOOST = 0.6;
/** Typed words looked up among the names' one-letter-dropped spellings (typoRules.ts). */
const DROPPED_LETTER_WORD = new RegExp(`^\\p{L}{${DROPPED_LETTER_MIN_LETTERS},}$`, 'u');

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

/**
 * Every word must match somewhere in the four fields, as typed, with one typo (two from eight letters; not in the
 * reference code), or, for the last word, as a prefix; a word found only through a typo weighs TYPO_WEIGHT of one
 * found as typed. On top of that, the whole name (even with one typo), its phrase and its start rank higher, and an
 * exact reference code ranks first even when its words alone would not match. The forms of precise search
 * (src/matching/queryText.ts) add their terms to the words that must match, and what is left out must not.
 */
export function buildTextQuery(q: string, parts: TextQueryParts = ALL_PARTS): Query {
  const parsed = parseQuery(q);
  if (parsed.plain) return plainWordsQuery(q, plainWordsOf(parsed), parts);
  return { bool: { should: [preciseQuery(parsed, parts), pastedNameQuery(q)], minimum_should_match: 1 } };
}

/**
 * Real names hold what the precise syntax reads as operators (`PLTU -Jeneponto I & II`, `"Blue Lake" GES`), and
 * people paste names: a `q` with operators that is, as written, a PPA's whole name (folded, its spaces collapsed
 * or as typed) or its reference code (case aside) finds that PPA first, beside what the operators select. A plain
 * `q` has its own whole-name and code clauses (plainWordsQuery), so its query is left as it was.
 */
function pastedNameQuery(q: string): Query {
  const names = pastedNameForms(q);
  return {
    constant_score: {
      filter: {
        bool: {
          should: [
            { terms: { [NAME_EXACT_FIELD]: names } },
            { term: { [REFERENCE_CODE_LOWERCASE_FIELD]: q.trim().toLowerCase() } },
          ],
        },
      },
      boost: PASTED_NAME_BOOST,
    },
  };
}

/** A `q` of plain words only: every word forgiving, the whole-name and reference-code bonuses. */
function plainWordsQuery(q: string, words: readonly string[], parts: TextQueryParts): Query {
  const referenceCode: Query = {
    term: {
      [REFERENCE_CODE_LOWERCASE_FIELD]: { value: q.trim().toLowerCase(), boost: REFERENCE_CODE_BOOST },
    },
  };
  if (words.length === 0) return { bool: { should: [referenceCode], minimum_should_match: 1 } };
  const { must, should, compact } = forgivingWords(words, true, parts);
  const whole: Query[] = [referenceCode, { bool: { must, should } }];
  if (parts.canonical && compact !== '') {
    // The whole name however it is written: "Kafue Gorge II" for "Kafue Gorge 2", "kafuegorge", "Hydro electric".
    whole.push({
      constant_score: { filter: { term: { [NAME_COMPACT_FIELD]: compact } }, boost: EXACT_NAME_BOOST },
    });
  }
  return { bool: { should: whole, minimum_should_match: 1 } };
}

/**
 * A `q` with operators: its plain words as forgiving as ever (with their bonuses), each other term looked for as
 * written (a phrase exactly, a qualified word in its field, a group when any of its terms matches), and every term
 * left out in must_not. A `q` that only leaves out matches every PPA but those.
 */
function preciseQuery(parsed: ParsedQuery, parts: TextQueryParts): Query {
  const plain = parsed.clauses.filter(isPlainWord);
  const words = plain.map((clause) => clause.terms[0]!.words[0]!);
  const { must, should } =
    words.length > 0
      ? forgivingWords(words, plain.at(-1)!.typing, parts)
      : { must: [] as Query[], should: [] as Query[] };
  const mustNot: Query[] = [];
  for (const clause of parsed.clauses) {
    if (clause.excluded) mustNot.push(...clause.terms.flatMap(exclusionQueries));
    else if (!isPlainWord(clause)) must.push(clauseQuery(clause, parts));
  }
  const bool: estypes.QueryDslBoolQuery = { must };
  if (should.length > 0) bool.should = should;
  if (mustNot.length > 0) bool.must_not = mustNot;
  return { bool };
}

/**
 * The plain words' clauses: each word's (must), and the bonuses of the words together (should). `typing`: the
 * last of them is the word still being typed.
 */
function forgivingWords(
  words: readonly string[],
  typing: boolean,
  parts: TextQueryParts,
): { must: Query[]; should: Query[]; compact: string } {
  const phrase = words.join(' ');
  // A word past MAX_TYPO_WORD_LETTERS matches exactly everywhere, also in the whole-name clauses.
  const typosAllowed = words.every((word) => [...word].length <= MAX_TYPO_WORD_LETTERS);
  const compact = compactForm(phrase);
  // Each typed word's canonical words and compact form, for the canonical and joined/split alternatives.
  const canonicalOfWords = words.map((word) => canonicalWords(word));
  const should: Query[] = [
    ...wholeNameBonuses(phrase, compact, typosAllowed, parts),
    ...allWordsInNameBonus(phrase, canonicalOfWords, typosAllowed, parts),
    { multi_match: { query: phrase, type: 'phrase', fields: TEXT_FIELDS, boost: PHRASE_BOOST } },
  ];
  if (parts.nameBonuses) {
    should.push({
      match_phrase_prefix: { [NAME_FOLDED_FIELD]: { query: phrase, boost: PHRASE_PREFIX_BOOST } },
    });
  }
  return { must: plainWordClauses(words, canonicalOfWords, typing, parts), should, compact };
}

/** The whole name as typed, the whole name but for one typo, and the name's start, however it is written. */
function wholeNameBonuses(
  phrase: string,
  compact: string,
  typosAllowed: boolean,
  parts: TextQueryParts,
): Query[] {
  const bonuses: Query[] = [];
  if (parts.nameBonuses) {
    bonuses.push({
      constant_score: { filter: { term: { [NAME_EXACT_FIELD]: phrase } }, boost: EXACT_NAME_BOOST },
    });
  }
  if (parts.nameWithTypo && typosAllowed) {
    // One typo in the whole name ("Kafuue Gorge South HFO Power Plant") still beats longer names with the same
    // words ("… Power Plant South").
    if (!parts.twoTypos) {
      bonuses.push({
        constant_score: {
          filter: { fuzzy: { [NAME_EXACT_FIELD]: { value: phrase, ...typoTolerance(ONE_TYPO) } } },
          boost: NAME_WITH_TYPO_BOOST,
        },
      });
    } else if (compact !== '') {
      const tolerance = typoTolerance(ONE_TYPO, FIRST_LETTER_AS_TYPED);
      bonuses.push({
        constant_score: {
          filter: { fuzzy: { [NAME_COMPACT_FIELD]: { value: compact, ...tolerance } } },
          boost: NAME_WITH_TYPO_BOOST,
        },
      });
    }
  }
  if (parts.compactPrefix && [...compact].length >= NAME_START_MIN_LETTERS) {
    // "Kikagati Falls Windp" is the start of "Kikagati Falls Windpark", and one typo from "Kikagati Falls Wind".
    bonuses.push({
      constant_score: { filter: { prefix: { [NAME_COMPACT_FIELD]: compact } }, boost: NAME_START_BOOST },
    });
  }
  return bonuses;
}

/**
 * All the words in the name itself (typos allowed), rather than spread over name, developer and place. A bonus
 * only (the words must match in `must` anyway), and the dearest clause of the query: its typos are looked for
 * behind the first letters as typed (ALL_WORDS_PREFIX_LENGTH), which the relevance suite finds no worse in any
 * class (docs/search-quality.md).
 */
function allWordsInNameBonus(
  phrase: string,
  canonicalOfWords: readonly string[][],
  typosAllowed: boolean,
  parts: TextQueryParts,
): Query[] {
  if (!parts.allWordsInName) return [];
  const tolerance = typosAllowed ? typoTolerance(FUZZINESS, ALL_WORDS_PREFIX_LENGTH) : {};
  const [field, query] = parts.canonical
    ? [NAME_CANONICAL_FIELD, canonicalOfWords.flat().join(' ')]
    : [NAME_FOLDED_FIELD, phrase];
  return query === '' ? [] : [{ match: { [field]: { query, operator: 'and', ...tolerance } } }];
}

/** Each plain word's clause: as typed, with its typos, its other spellings, and (the last) as a prefix. */
function plainWordClauses(
  words: readonly string[],
  canonicalOfWords: readonly string[][],
  typing: boolean,
  parts: TextQueryParts,
): Query[] {
  const compactWords = canonicalOfWords.map((canonical) => canonical.join(''));
  return words.map((word, position) => {
    const alternatives: Query[] = [];
    const canonical = canonicalOfWords[position] ?? [];
    if (parts.canonical && canonical.length > 0) {
      // "II" finds "2", "PV" finds "Photovoltaic" (and the other way: the name's canonical words hold the
      // long form), "pe" finds "P.E.".
      alternatives.push({
        match_phrase: {
          [NAME_CANONICAL_FIELD]: { query: canonical.join(' '), boost: CANONICAL_WORD_BOOST },
        },
      });
    }
    if (parts.joinedSplit) alternatives.push(...joinedSplitQueries(compactWords, position));
    const last = typing && position === words.length - 1;
    // "Tobel hydro", "Tobel Switzerland": what the PPA is, where its name does not say it.
    if (parts.descriptors) alternatives.push(...descriptorQuery(word, last));
    return wordQuery(word, last, parts, alternatives);
  });
}

/** Where a term is looked for: everywhere `q` looks, or in the one field a qualifier names. */
interface Scope {
  /** The folded fields, with their boosts. */
  fields: string[];
  /** Those of them a word may match with a typo. */
  typoFields: string[];
  /** The name is among them: its other spellings (dropped letters, joined words, …) count. */
  name: boolean;
  /** Everywhere: the technology and the country count too. */
  descriptors: boolean;
}

const EVERYWHERE: Scope = { fields: TEXT_FIELDS, typoFields: TYPO_FIELDS, name: true, descriptors: true };

function scopeOf(field: TextField['record'] | undefined): Scope {
  const entry = TEXT_FIELD_TABLE.find(({ record }) => record === field);
  if (entry === undefined) return EVERYWHERE;
  const fields = [boostedField(entry)];
  return {
    fields,
    typoFields: entry.rules === 'exact' ? [] : fields,
    name: entry.rules === 'name',
    descriptors: false,
  };
}

/** A clause looked for: its one term, or the best of its alternatives (any of them matches). */
function clauseQuery(clause: Clause, parts: TextQueryParts): Query {
  const queries = clause.terms.map((term) => termQuery(term, clause.typing, parts));
  return queries.length === 1 ? queries[0]! : { dis_max: { queries } };
}

/** A phrase exactly, in its scope; a word as forgiving as a plain one, in its scope. */
function termQuery(term: Term, typing: boolean, parts: TextQueryParts): Query {
  const scope = scopeOf(term.field);
  if (term.phrase)
    return { multi_match: { query: term.words.join(' '), type: 'phrase', fields: scope.fields } };
  const word = term.words[0]!;
  const alternatives: Query[] = [];
  const canonical = canonicalWords(word);
  if (scope.name && parts.canonical && canonical.length > 0) {
    alternatives.push({
      match_phrase: { [NAME_CANONICAL_FIELD]: { query: canonical.join(' '), boost: CANONICAL_WORD_BOOST } },
    });
  }
  const compact = canonical.join('');
  if (scope.name && parts.joinedSplit && [...compact].length >= JOINED_MIN_LETTERS) {
    alternatives.push({ term: { [NAME_JOINED_FIELD]: { value: compact, boost: JOINED_WORD_BOOST } } });
  }
  if (term.field === 'reference_code') {
    // code:ZM-HYD-2008, the whole code as typed: first, as a plain q that is the code.
    alternatives.push({
      term: { [REFERENCE_CODE_LOWERCASE_FIELD]: { value: word, boost: REFERENCE_CODE_BOOST } },
    });
  }
  if (scope.descriptors && parts.descriptors) alternatives.push(...descriptorQuery(word, typing));
  return wordQuery(word, typing, parts, alternatives, scope);
}

/**
 * A term left out: the PPAs it matches anywhere `q` looks (the four fields, the technology's words, the country's
 * names), or in its qualifier's field, as a whole word or the phrase, case and accents aside, with no typo and no
 * prefix. The descriptor fields keep no positions (a handful of words each): there a phrase is all its words.
 */
function exclusionQueries(term: Term): Query[] {
  const query = term.words.join(' ');
  if (term.field !== undefined) {
    const fields = scopeOf(term.field).fields;
    return [
      term.phrase
        ? { multi_match: { query, type: 'phrase', fields } }
        : { multi_match: { query, fields, operator: 'and' } },
    ];
  }
  if (!term.phrase) return [{ multi_match: { query, fields: EXCLUSION_FIELDS, operator: 'and' } }];
  return [
    { multi_match: { query, type: 'phrase', fields: TEXT_FIELDS } },
    { multi_match: { query, fields: DESCRIPTOR_FIELDS, operator: 'and' } },
  ];
}

const EXCLUSION_FIELDS = [...TEXT_FIELDS, ...DESCRIPTOR_FIELDS];

/**
 * A typed word that is two adjacent name words joined ("kafuegorge" in name_joined), or one half of a name word
 * typed as two ("hydro" + "electric" is the name word "hydroelectric", for either of the two typed words).
 */
function joinedSplitQueries(compactWords: readonly string[], position: number): Query[] {
  const queries: Query[] = [];
  const word = compactWords[position] ?? '';
  if ([...word].length >= JOINED_MIN_LETTERS) {
    queries.push({ term: { [NAME_JOINED_FIELD]: { value: word, boost: JOINED_WORD_BOOST } } });
  }
  const splits = new Set<string>();
  if (position > 0) splits.add(`${compactWords[position - 1] ?? ''}${word}`);
  if (position + 1 < compactWords.length) splits.add(`${word}${compactWords[position + 1] ?? ''}`);
  for (const joined of splits) {
    if ([...joined].length < JOINED_MIN_LETTERS || joined === word) continue;
    queries.push({ term: { [NAME_CANONICAL_FIELD]: { value: joined, boost: JOINED_WORD_BOOST } } });
  }
  return queries;
}

/** One typed word: the best of its matches as typed, with a typo, and (last word) as a prefix. */
function wordQuery(
  word: string,
  last: boolean,
  parts: TextQueryParts,
  alternatives: Query[],
  scope: Scope = EVERYWHERE,
): Query {
  const exactOnly = [...word].length > MAX_TYPO_WORD_LETTERS;
  const queries: Query[] = [
    // cross_fields blends a word's frequency over the fields: "solar", common in names, would otherwise score
    // higher in a developer's name (rare there) than in the project name, boost or not.
    {
      multi_match: {
        query: word,
        type: parts.crossFields ? 'cross_fields' : 'best_fields',
        fields: scope.fields,
        operator: 'and',
      },
    },
  ];
  queries.push(...alternatives);
  if (exactOnly) return { dis_max: { queries } };
  if (scope.name && parts.twoTypos && TWO_TYPOS_WORD.test(word)) {
    const tolerance = typoTolerance(ONE_TYPO, FIRST_LETTER_AS_TYPED);
    queries.push({
      fuzzy: { [NAME_DROPPED_LETTER_FIELD]: { value: word, ...tolerance, boost: TWO_TYPOS_WORD_BOOST } },
    });
  }
  if (scope.typoFields.length > 0) {
    queries.push({
      multi_match: {
        query: word,
        type: 'best_fields',
        fields: scope.typoFields,
        ...typoTolerance(FUZZINESS),
        operator: 'and',
        boost: TYPO_WEIGHT,
      },
    });
  }
  // A letter dropped from a word of TYPO_MIN_LETTERS leaves one fewer, too short for fuzziness ("Slar" for
  // "Solar"): the indexer writes every name word that long or longer with one letter (not the first) dropped.
  if (scope.name && parts.droppedLetter && DROPPED_LETTER_WORD.test(word)) {
    queries.push({ term: { [NAME_DROPPED_LETTER_FIELD]: { value: word, boost: DROPPED_LETTER_BOOST } } });
  }
  // The same for the first letter ("Olar"): kept in a field of its own, so that the other lookups of
  // the dropped-letter spellings (two typos, suggestions) still rely on the first letter.
  if (scope.name && parts.firstLetter && DROPPED_LETTER_WORD.test(word)) {
    queries.push({
      term: { [NAME_WITHOUT_FIRST_LETTER_FIELD]: { value: word, boost: FIRST_LETTER_DROPPED_BOOST } },
    });
  }
  // The other way round: a letter doubled or inserted. Fuzziness finds "Vitória" and "Victoria" for "Viitória"
  // alike (one edit each); only the first is the typed word with a letter taken out.
  const withoutOneLetter = scope.name && parts.extraLetter ? droppedLetterSpellings(word) : [];
  if (withoutOneLetter.length > 0) {
    queries.push({
      match: { [NAME_FOLDED_FIELD]: { query: withoutOneLetter.join(' '), boost: EXTRA_LETTER_BOOST } },
    });
  }
  if (last) {
    queries.push({
      multi_match: { query: word, type: 'bool_prefix', fields: scope.fields, operator: 'and' },
    });
  }
  return { dis_max: { queries } };
}

/**
 * A typed word matched by the PPA's technology or country (DESCRIPTOR_FIELDS): as typed, the last word also as a
 * prefix ("Tobel hydr"). A constant score: how common "solar" is among technologies says nothing about how well a
 * PPA matches. No typo tolerance here: a fuzzy clause on these fields cost Elasticsearch more than it found
 * (docs/performance.md, "Tried and not kept"), and a name that says the word still matches it with a typo. The
 * word is cut as the indexer cuts the descriptors' words (foldedWords: "d'ivoire" → d, ivoire).
 */
function descriptorQuery(word: string, last: boolean): Query[] {
  const query = foldedWords(word).join(' ');
  if (query === '') return [];
  const type = last ? 'bool_prefix' : 'best_fields';
  return [
    {
      constant_score: {
        filter: { multi_match: { query, type, fields: DESCRIPTOR_FIELDS, operator: 'and' } },
        boost: DESCRIPTOR_WORD_BOOST,
      },
    },
  ];
}
