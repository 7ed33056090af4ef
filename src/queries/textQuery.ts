// Full-text relevance for `q`, kept apart so it can be tuned against the relevance suite (npm run relevance)
// without touching the rest of the query. Documents hold folded copies of the text
// (indexer/elasticsearch/buildDocument.ts); the query is folded the same way, so "Sao Joao" meets "São João" without an
// asciifolding filter in Elasticsearch.
import type { estypes } from '@elastic/elasticsearch';

import { canonicalWords, compactForm } from '../../indexContract/text/canonical.js';

import { pastedNameForms } from '../matching/pastedName.js';
import {
  NAME_CANONICAL_FIELD,
  NAME_COMPACT_FIELD,
  NAME_EXACT_FIELD,
  NAME_FOLDED_FIELD,
  NAME_JOINED_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
} from '../../indexContract/fields.js';
import { DESCRIPTOR_FIELDS, TEXT_FIELDS } from '../matching/textFields.js';
import {
  isPlainWord,
  plainWordsOf,
  searchTextOf,
  type Clause,
  type ParsedQuery,
  type SearchText,
  type Term,
} from '../matching/queryText.js';
import {
  ALL_WORDS_PREFIX_LENGTH,
  FIRST_LETTER_AS_TYPED,
  FUZZINESS,
  JOINED_MIN_LETTERS,
  MAX_TYPO_WORD_LETTERS,
  NAME_START_MIN_LETTERS,
  ONE_TYPO,
  typoTolerance,
} from '../matching/typoRules.js';
import {
  PHRASE_BOOST,
  PHRASE_PREFIX_BOOST,
  EXACT_NAME_BOOST,
  NAME_WITH_TYPO_BOOST,
  REFERENCE_CODE_BOOST,
  PASTED_NAME_BOOST,
  CANONICAL_WORD_BOOST,
  JOINED_WORD_BOOST,
  NAME_START_BOOST,
} from './textBoosts.js';
import { ALL_PARTS, type TextQueryParts } from './textQueryParts.js';

import { descriptorQuery, joinedSplitQueries, scopeOf, wordQuery } from './wordClauses.js';

export * from './textBoosts.js';
export { ALL_PARTS, type TextQueryParts } from './textQueryParts.js';

type Query = estypes.QueryDslQueryContainer;

/**
 * Every word must match somewhere in the four fields, as typed, with one typo (two from eight letters; not in the
 * reference code), or, for the last word, as a prefix; a word found only through a typo weighs TYPO_WEIGHT of one
 * found as typed. On top of that, the whole name (even with one typo), its phrase and its start rank higher, and an
 * exact reference code ranks first even when its words alone would not match. The forms of precise search
 * (src/matching/queryText.ts) add their terms to the words that must match, and what is left out must not.
 */
export function buildTextQuery(q: string | SearchText, parts: TextQueryParts = ALL_PARTS): Query {
  return textQuery(q, parts, 'rank');
}

/**
 * The PPAs `q` selects, and nothing of how they rank: the text query without its bonuses (the whole name, its
 * phrase and start, all the words in the name), which never decide what matches, only its order. For a count (a
 * rewrite's, src/queries/didYouMean.ts), where the bonuses would be built, looked up and then left unread: the
 * same PPAs, exactly, for less (docs/performance.md, "The cost of a miss").
 */
export function buildTextSelection(q: string | SearchText): Query {
  return textQuery(q, ALL_PARTS, 'select');
}

/** What the text query is for: to rank what it selects (the list), or only to select it (a count). */
type Purpose = 'rank' | 'select';

/** `query` as a request read it (SearchText: parsed once, reused), or as text (tools and tests). */
function textQuery(query: string | SearchText, parts: TextQueryParts, purpose: Purpose): Query {
  const read = searchTextOf(query);
  const { text: q, parsed } = read;
  if (parsed.plain) return plainWordsQuery(q, plainWordsOf(parsed), parts, purpose);
  return {
    bool: { should: [preciseQuery(parsed, parts, purpose), pastedNameQuery(q)], minimum_should_match: 1 },
  };
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
function plainWordsQuery(
  q: string,
  words: readonly string[],
  parts: TextQueryParts,
  purpose: Purpose,
): Query {
  const referenceCode: Query = {
    term: {
      [REFERENCE_CODE_LOWERCASE_FIELD]: { value: q.trim().toLowerCase(), boost: REFERENCE_CODE_BOOST },
    },
  };
  if (words.length === 0) return { bool: { should: [referenceCode], minimum_should_match: 1 } };
  const { must, should, compact } = forgivingWords(words, true, parts, purpose);
  const whole: Query[] = [referenceCode, { bool: purpose === 'rank' ? { must, should } : { must } }];
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
function preciseQuery(parsed: ParsedQuery, parts: TextQueryParts, purpose: Purpose): Query {
  const plain = parsed.clauses.filter(isPlainWord);
  const words = plain.map((clause) => clause.terms[0]!.words[0]!);
  const { must, should } =
    words.length > 0
      ? forgivingWords(words, plain.at(-1)!.typing, parts, purpose)
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
 * The plain words' clauses: each word's (must), and the bonuses of the words together (should; none when the
 * query only selects). `typing`: the last of them is the word still being typed.
 */
function forgivingWords(
  words: readonly string[],
  typing: boolean,
  parts: TextQueryParts,
  purpose: Purpose,
): { must: Query[]; should: Query[]; compact: string } {
  const phrase = words.join(' ');
  const compact = compactForm(phrase);
  // Each typed word's canonical words and compact form, for the canonical and joined/split alternatives.
  const canonicalOfWords = words.map((word) => canonicalWords(word));
  const must = plainWordClauses(words, canonicalOfWords, typing, parts);
  if (purpose === 'select') return { must, should: [], compact };
  // A word past MAX_TYPO_WORD_LETTERS matches exactly everywhere, also in the whole-name clauses.
  const typosAllowed = words.every((word) => [...word].length <= MAX_TYPO_WORD_LETTERS);
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
  return { must, should, compact };
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
