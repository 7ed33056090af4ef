// GET /api/v1/ppas/suggest → one search over project names (published and active): every typed word but the
// last must be a name word (one typo from five letters), the last one the start of a name word (one typo from
// five typed letters, through the indexer's word prefixes). Ranked like `q`: the whole name first, then names
// that start with what was typed, then the rest by how well the words match.
import type { estypes } from '@elastic/elasticsearch';
import {
  NAME_CANONICAL_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_EXACT_FIELD,
  NAME_FOLDED_FIELD,
  NAME_PREFIXES_FIELD,
} from '../../indexContract/fields.js';
import { canonicalWords } from '../../indexContract/text/canonical.js';
import { foldText } from '../../indexContract/text/fold.js';
import { PREFIX_MAX_LENGTH } from '../../indexContract/text/prefixes.js';
import { standardTokens } from '../../indexContract/text/tokenizer.js';
import {
  DROPPED_LETTER_MIN_LETTERS,
  FIRST_LETTER_AS_TYPED,
  ONE_TYPO,
  PREFIX_TYPO_MIN_LETTERS,
  TYPO_MIN_LETTERS,
  typoTolerance,
} from '../matching/typoRules.js';
import type { SuggestQuery } from '../params/suggest.js';
import type { SearchRequestBody } from '../gateway/gateway.js';

type Query = estypes.QueryDslQueryContainer;

export const SUGGEST_SOURCE_FIELDS = ['slug', 'project_name', 'technology', 'country_code'] as const;

/** One typo in a typed word from five letters, never two: suggestions run on every keystroke (typoRules.ts). */
export const SUGGEST_TYPO_MIN_LETTERS = TYPO_MIN_LETTERS;
/**
 * The word being typed tolerates its typo from four letters: a letter dropped from a five-letter word leaves four
 * ("Powr"), as the full-text query's dropped-letter spellings allow.
 */
export const SUGGEST_PREFIX_TYPO_MIN_LETTERS = PREFIX_TYPO_MIN_LETTERS;
/** Same rule for complete words, through the indexer's dropped-letter spellings of name words. */
const DROPPED_LETTER_WORD = new RegExp(`^\\p{L}{${DROPPED_LETTER_MIN_LETTERS}}$`, 'u');
/** A word matched through a typo counts this much of one matched as typed. */
export const SUGGEST_TYPO_WEIGHT = 0.2;
/** What was typed is the whole name. */
export const SUGGEST_EXACT_NAME_BOOST = 100;
/** The name starts with what was typed (its last word still being typed). */
export const SUGGEST_NAME_START_BOOST = 20;
/** The typed words stand in the name in that order (anywhere in it). */
export const SUGGEST_PHRASE_BOOST = 5;
/** Typed words: at most this many (more cannot start a name anyway; q is 100 characters). */
const MAX_WORDS = 12;

/**
 * A word written another way than the name writes it (a numeral, a sector abbreviation, inner punctuation: "PV"
 * for "Photovoltaic", "II" for "2", "pe" for "P.E."): its canonical words, in order, among the name's. For the
 * word being typed only when they differ from it (the name's prefixes hold the canonical words' prefixes).
 */
function canonicalQuery(word: string, onlyWhenDifferent: boolean): Query[] {
  const canonical = canonicalWords(word).join(' ');
  if (canonical === '' || (onlyWhenDifferent && canonical === word)) return [];
  return [{ match_phrase: { [NAME_CANONICAL_FIELD]: { query: canonical } } }];
}

/** A complete word: a name word as typed, or with one typo (from five letters; a dropped letter from four). */
function wordQuery(word: string): Query {
  const queries: Query[] = [
    { match: { [NAME_FOLDED_FIELD]: { query: word } } },
    ...canonicalQuery(word, false),
  ];
  if ([...word].length >= SUGGEST_TYPO_MIN_LETTERS) {
    queries.push({
      match: { [NAME_FOLDED_FIELD]: { query: word, ...typoTolerance(ONE_TYPO), boost: SUGGEST_TYPO_WEIGHT } },
    });
  }
  if (DROPPED_LETTER_WORD.test(word)) {
    queries.push({ term: { [NAME_DROPPED_LETTER_FIELD]: { value: word, boost: SUGGEST_TYPO_WEIGHT } } });
  }
  return { dis_max: { queries } };
}

/** The word being typed: the start of a name word, as typed or with one typo. */
function lastWordQuery(word: string): Query {
  const prefix = [...word].slice(0, PREFIX_MAX_LENGTH).join('');
  const queries: Query[] = [
    { term: { [NAME_PREFIXES_FIELD]: { value: prefix } } },
    ...canonicalQuery(word, true),
  ];
  if ([...prefix].length >= SUGGEST_PREFIX_TYPO_MIN_LETTERS) {
    const tolerance = typoTolerance(ONE_TYPO, FIRST_LETTER_AS_TYPED);
    queries.push({
      fuzzy: { [NAME_PREFIXES_FIELD]: { value: prefix, ...tolerance, boost: SUGGEST_TYPO_WEIGHT } },
    });
  }
  return { dis_max: { queries } };
}

/** The words of `q` as suggest reads them (folded tokens, at most MAX_WORDS). */
const suggestWords = (q: string): string[] => standardTokens(foldText(q)).slice(0, MAX_WORDS);

/** What selects a name: each complete word matches, and the last one as a start (none: nothing is selected). */
function selectingClauses(words: readonly string[]): Query[] {
  return words.length === 0
    ? [{ match_none: {} }] // nothing to suggest for punctuation alone
    : [...words.slice(0, -1).map(wordQuery), lastWordQuery(words[words.length - 1] ?? '')];
}

export function buildSuggestSearch(query: SuggestQuery): SearchRequestBody {
  const words = suggestWords(query.q);
  const typed = foldText(query.q.trim()).replace(/\s+/gu, ' ');
  const must = selectingClauses(words);
  const should: Query[] = [
    { constant_score: { filter: { term: { [NAME_EXACT_FIELD]: typed } }, boost: SUGGEST_EXACT_NAME_BOOST } },
    {
      constant_score: { filter: { prefix: { [NAME_EXACT_FIELD]: typed } }, boost: SUGGEST_NAME_START_BOOST },
    },
    {
      match_phrase_prefix: {
        [NAME_FOLDED_FIELD]: { query: words.join(' '), boost: SUGGEST_PHRASE_BOOST },
      },
    },
  ];
  return {
    query: { bool: { filter: [{ term: { active: true } }], must, should } },
    // Equal scores: by name, then slug (a stable order for the same input).
    sort: [{ _score: { order: 'desc' } }, { name_sort: { order: 'asc' } }, { slug: { order: 'asc' } }],
    size: query.limit,
    track_total_hits: false,
    _source: [...SUGGEST_SOURCE_FIELDS],
  };
}

/**
 * How many names the suggestions for `query.q` would come from: a size-0 search of what selects them, unscored (the
 * bonuses that only order them left out): a rewrite's count (didYouMean.ts).
 */
export function buildSuggestCountSearch(query: SuggestQuery): SearchRequestBody {
  const filter = [{ term: { active: true } }, ...selectingClauses(suggestWords(query.q))];
  return { query: { bool: { filter } }, size: 0, track_total_hits: true };
}
