// "Did you mean": for a list or suggest request with `q` that found nothing, the first rewrite of `q`
// (src/matching/rewrite/, best first) that finds something, with how much it finds. Only ever after an empty
// answer, so an answer with results costs what it did; and a miss may cost little more than a hit (issue 72):
//   1. one size-0 search counts the likeliest rewrite exactly, by what the request itself selects (its filters, its
//      `q` without the bonuses that only rank), and says, cheaply, which of the next ones some PPA holds every word
//      of (each word looked up as written, no typo; the word being typed as the start of one): most offers are the
//      likeliest rewrite, which then costs this one search;
//   2. only when it finds nothing, the first of the others so held is counted exactly, with any rewrite before it
//      the first search could not judge (a word it keeps that the vocabulary does not hold: a typo the forgiving
//      match forgives), at most REWRITES_COUNTED counts in all.
// Both are optional searches: under pressure (admission queueing or shedding) they are not run, and the empty
// answer goes at once with `did_you_mean: null`; a failed or late one does the same, never failing the answer.
import type { estypes } from '@elastic/elasticsearch';
import type { SearchGateway, SearchRequestBody } from '../gateway/gateway.js';
import { SearchAbandonedError, SearchDeclinedError } from '../gateway/searchErrors.js';
import { ServiceUnavailableError, OverloadedError } from '../http/problem.js';
import { SearchText, writtenPlainWords, writtenWordsOf } from '../matching/queryText.js';
import { rewritesOf } from '../matching/rewrite/rewrites.js';
import type { MatchMode } from '../matching/typoRules.js';
import type { Vocabulary } from '../matching/vocabulary.js';
import { isListQ } from '../params/filters.js';
import type { ListQuery } from '../params/list.js';
import { MAX_SUGGEST_Q_LENGTH, type SuggestQuery } from '../params/suggest.js';
import { buildListCountSearch } from './listSearch.js';
import { buildSuggestCountSearch } from './suggestSearch.js';
import { NAME_CANONICAL_FIELD, NAME_FOLDED_FIELD } from '../../indexContract/fields.js';
import { DESCRIPTOR_FIELDS, TEXT_FIELD_TABLE } from '../matching/textFields.js';

type Query = estypes.QueryDslQueryContainer;

/** The words a PPA must hold for a rewrite to find it, each folded: whole, and the one being typed as a start. */
export interface HeldWords {
  whole: string[];
  start?: string;
}

/**
 * Where a list rewrite's word is looked up as written: where the vocabulary's words come from (the four text
 * fields, the name's canonical words, the technology's words and the country's names). Each is one of the ways the
 * forgiving match meets a word, so a rewrite whose words one PPA holds here finds that PPA.
 */
const HELD_WORD_FIELDS = [
  ...TEXT_FIELD_TABLE.map(({ folded }) => folded),
  NAME_CANONICAL_FIELD,
  ...DESCRIPTOR_FIELDS,
];
/** Suggestions look in the name only. */
const SUGGEST_HELD_WORD_FIELDS = [NAME_FOLDED_FIELD, NAME_CANONICAL_FIELD];

/** Rewrites considered per empty answer: the likeliest few, judged together by the first, cheap search. */
export const REWRITES_CONSIDERED = 6;
/** Rewrites counted exactly per empty answer, at most (each a search of the request's full selection). */
export const REWRITES_COUNTED = 2;

export interface DidYouMean {
  /** The rewritten `q`. */
  q: string;
  /** What it finds: the `meta.total` of the same request with it. */
  total: number;
}

/**
 * What "did you mean" came to: a rewrite offered; undefined when none finds anything; null when it was not looked
 * for (admission under pressure, or its searches failed): the answer says so with `did_you_mean: null`.
 */
export type DidYouMeanOutcome = DidYouMean | undefined | null;

/** How one kind of request is rewritten and counted. */
export interface RewriteCounting {
  /** The rewrites, best first. */
  rewrites: readonly string[];
  /** What the request selects apart from `q` (its filters, live PPAs only). */
  scope: Query;
  /** The words of a rewrite, when the vocabulary holds every one (none: it cannot be judged so). */
  heldWordsOf: (q: string) => HeldWords | undefined;
  /** The fields a held word is looked up in, as written. */
  fields: readonly string[];
  /** The exact count of a rewrite: the request's own selection with it. */
  countOf: (q: string) => SearchRequestBody;
}

/** The first rewrite that finds something (see the top of this file); `startedAt`: the answer's deadline starts. */
export async function firstThatFinds(
  search: SearchGateway,
  counting: RewriteCounting,
  startedAt?: number,
): Promise<DidYouMeanOutcome> {
  const considered = counting.rewrites.slice(0, REWRITES_CONSIDERED);
  if (considered.length === 0) return undefined;
  const options = { optional: true, ...(startedAt === undefined ? {} : { startedAt }) };
  try {
    const words = considered.map((q) => counting.heldWordsOf(q));
    const first = await judged(search, counting, considered[0]!, words, options);
    if (first.total > 0) return { q: considered[0]!, total: first.total };
    const counted = toCount(considered, words, first.held);
    if (counted.length === 0) return undefined;
    const responses =
      counted.length === 1
        ? [await search.search(counting.countOf(counted[0]!), options)]
        : await search.msearch(counted.map(counting.countOf), options);
    for (const [index, response] of responses.entries()) {
      const found = totalOf(response.hits.total);
      if (found > 0) return { q: counted[index]!, total: found };
    }
    return undefined;
  } catch (error) {
    if (wentWithout(error)) return null;
    throw error;
  }
}

interface JudgedAggregations {
  first: estypes.AggregationsFilterAggregate;
  held?: estypes.AggregationsFiltersAggregate;
}

/**
 * One size-0 search: the likeliest rewrite counted exactly (a `filter` aggregation of its selection within the
 * request's scope: most offers are it), and which of the others (by place) some PPA in scope holds every word of.
 */
async function judged(
  search: SearchGateway,
  counting: RewriteCounting,
  likeliest: string,
  words: readonly (HeldWords | undefined)[],
  options: { optional: boolean; startedAt?: number },
): Promise<{ total: number; held: Set<number> }> {
  const filters = heldFilters(words, counting.fields);
  const response = await search.search<unknown, JudgedAggregations>(
    {
      size: 0,
      track_total_hits: false,
      query: counting.scope,
      aggs: {
        first: { filter: counting.countOf(likeliest).query! },
        ...(Object.keys(filters).length > 0 ? { held: { filters: { filters } } } : {}),
      },
    },
    options,
  );
  const buckets = response.aggregations?.held?.buckets as Record<string, { doc_count: number }> | undefined;
  const held = Object.entries(buckets ?? {})
    .filter(([, bucket]) => bucket.doc_count > 0)
    .map(([index]) => Number(index));
  return { total: response.aggregations?.first.doc_count ?? 0, held: new Set(held) };
}

/** Each rewrite after the first that can be judged (by its place): a filter of the words a PPA must hold. */
function heldFilters(words: readonly (HeldWords | undefined)[], fields: readonly string[]) {
  const filters: Record<string, Query> = {};
  words.forEach((each, index) => {
    if (each === undefined || index === 0) return;
    const held: Query[] = each.whole.map((word) => ({ multi_match: { query: word, fields: [...fields] } }));
    if (each.start !== undefined)
      held.push({ multi_match: { query: each.start, fields: [...fields], type: 'bool_prefix' } });
    filters[index] = { bool: { filter: held } };
  });
  return filters;
}

/**
 * The rewrites after the first counted exactly, best first: those before the first held one that could not be
 * judged, then the first held one; with the first, at most REWRITES_COUNTED. A rewrite judged and not held is
 * passed over: no PPA holds its words together as written.
 */
function toCount(
  considered: readonly string[],
  words: readonly (HeldWords | undefined)[],
  held: ReadonlySet<number>,
): string[] {
  const counted: string[] = [];
  for (const [index, q] of considered.entries()) {
    if (index === 0) continue;
    if (counted.length === REWRITES_COUNTED - 1) break;
    if (words[index] === undefined) counted.push(q);
    else if (held.has(index)) {
      counted.push(q);
      break;
    }
  }
  return counted;
}

const totalOf = (total: number | estypes.SearchTotalHits | undefined): number =>
  typeof total === 'number' ? total : (total?.value ?? 0);

/**
 * A search that did not run or did not end in time (declined under pressure, refused, Elasticsearch unavailable
 * or late): the answer goes without its suggestion. A client gone is not one: nobody reads that answer.
 */
function wentWithout(error: unknown): boolean {
  if (error instanceof SearchAbandonedError) return false;
  return (
    error instanceof SearchDeclinedError ||
    error instanceof OverloadedError ||
    error instanceof ServiceUnavailableError
  );
}

/**
 * The folded words of `written`, when the vocabulary holds every one of them: whole, and the word being typed (the
 * last, matched as a start by the list and suggest alike) as the start of one.
 */
function heldWords(
  written: readonly { words: string[]; typing: boolean }[],
  vocabulary: Vocabulary,
): HeldWords | undefined {
  const last = written.at(-1);
  const typing = last?.typing === true && last.words.length === 1;
  const whole = (typing ? written.slice(0, -1) : written).flatMap((word) => word.words);
  const start = typing ? last.words[0] : undefined;
  if (whole.length === 0 && start === undefined) return undefined;
  if (!whole.every((word) => vocabulary.count(word) > 0)) return undefined;
  if (start !== undefined && !vocabulary.holdsStart(start)) return undefined;
  return { whole, ...(start === undefined ? {} : { start }) };
}

/** The words a list rewrite's PPAs must hold (none: it has operators, or a word the vocabulary does not hold). */
export function listHeldWords(q: string | SearchText, vocabulary: Vocabulary): HeldWords | undefined {
  const { words, othersLookedFor } = writtenPlainWords(q);
  return othersLookedFor ? undefined : heldWords(words, vocabulary);
}

/** For a list request whose `q` found nothing: the first rewrite of `q` that finds something under its filters. */
export function listDidYouMean(
  search: SearchGateway,
  query: ListQuery & { q: SearchText },
  vocabulary: Vocabulary,
  startedAt?: number,
): Promise<DidYouMeanOutcome> {
  // Each rewrite read once: the check of its bounds, its held words and its count share the parse.
  const read = new Map(
    rewritesOf(query.q, vocabulary, 'list', REWRITES_CONSIDERED)
      .map((text) => new SearchText(text))
      .filter(isListQ)
      .map((rewrite) => [rewrite.text, rewrite]),
  );
  const readOf = (text: string) => read.get(text) ?? new SearchText(text);
  return firstThatFinds(
    search,
    {
      rewrites: [...read.keys()],
      scope: buildListCountSearch({ ...query, q: undefined }).query!,
      heldWordsOf: (q) => listHeldWords(readOf(q), vocabulary),
      fields: HELD_WORD_FIELDS,
      countOf: (q) => buildListCountSearch({ ...query, q: readOf(q) }),
    },
    startedAt,
  );
}

/** For suggestions that found nothing: the first rewrite of `q` (read as typed text) that suggests something. */
export function suggestDidYouMean(
  search: SearchGateway,
  query: SuggestQuery,
  vocabulary: Vocabulary,
  startedAt?: number,
): Promise<DidYouMeanOutcome> {
  const mode: MatchMode = 'suggest';
  const rewrites = rewritesOf(query.q, vocabulary, mode, REWRITES_CONSIDERED).filter(
    (q) => q.length <= MAX_SUGGEST_Q_LENGTH,
  );
  return firstThatFinds(
    search,
    {
      rewrites,
      scope: { bool: { filter: [{ term: { active: true } }] } },
      heldWordsOf: (q) => heldWords(writtenWordsOf(q), vocabulary),
      fields: SUGGEST_HELD_WORD_FIELDS,
      countOf: (q) => buildSuggestCountSearch({ ...query, q }),
    },
    startedAt,
  );
}
