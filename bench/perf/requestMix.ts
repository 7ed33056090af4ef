// The request mix of the load benchmark: what a public search API plausibly serves (the first page, text
// searches, filter combinations, sorts, detail lookups, statistics), drawn with a seeded PRNG from a sample of the
// live records so that searches find something. Each request carries both forms: the API path, and the exact
// Elasticsearch `_search` body the API sends for it, built with the API's own pure builders from the same query
// string (parse → build), so the raw side runs the same queries.
import { Random } from '../../tools/generate/random.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { parseDetailRequest } from '../../src/params/detail.js';
import { parseListQuery } from '../../src/params/list.js';
import { ocdsReleasesQuery } from '../../src/params/ocdsReleases.js';
import { FACET_NAMES } from '../../src/params/facets.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import { parseSuggestQuery } from '../../src/params/suggest.js';
import { buildDetailLookup } from '../../src/queries/detailSearch.js';
import type { SearchRequestBody } from '../../src/gateway/gateway.js';
import { buildListSearches } from '../../src/queries/listSearch.js';
import { buildOcdsReleasePageSearch } from '../../src/queries/ocdsSearch.js';
import { buildStatisticsSearch } from '../../src/queries/statisticsSearch.js';
import { buildSuggestSearch } from '../../src/queries/suggestSearch.js';
import { slippedText } from './typedText.js';

export const REQUEST_KINDS = [
  'list_plain',
  'list_q',
  'list_filter',
  'list_sort',
  'detail',
  'statistics',
  // Measured apart from the mix (weight 0): the list with every facet, suggestions as one types, and the release
  // package (GET /api/v1/ppas/ocds) of the mix's lists beside the same lists (releasePackagePairs).
  'list_facets',
  'suggest',
  'release_package',
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** Share of each kind in the mix (percent). */
export const MIX_WEIGHTS: Record<RequestKind, number> = {
  list_plain: 10,
  list_q: 30,
  list_filter: 20,
  list_sort: 10,
  detail: 20,
  statistics: 10,
  list_facets: 0,
  suggest: 0,
  release_package: 0,
};

export interface MixRequest {
  kind: RequestKind;
  /** Path and query string on the API, e.g. `/api/v1/ppas?q=solar`. */
  apiPath: string;
  /** The body the API sends for it, serialised: a `_search` body, or an `_msearch` NDJSON body ('' for a get). */
  esBody: string;
  /**
   * `_msearch` when the API sends its searches as one _msearch (a list with facets and no q); a detail is the
   * get the API makes (`_doc/<slug>?…`, method GET).
   */
  esEndpoint: '_search' | '_msearch' | `_doc/${string}`;
  /** GET for a detail's document lookup; POST (the default) for searches. */
  esMethod?: 'GET' | 'POST';
  /** The record a detail request asks for. */
  slug?: string;
}

const API = '/api/v1/ppas';

/** The request for one API query string (list or statistics) or one slug (detail), with its `_search` body. */
export function mixRequest(kind: RequestKind, querystringOrSlug: string): MixRequest {
  let body: SearchRequestBody;
  let apiPath: string;
  if (kind === 'detail') {
    const lookup = buildDetailLookup(parseDetailRequest(querystringOrSlug, ''));
    apiPath = `${API}/${querystringOrSlug}`;
    const query = `_source_includes=${lookup._source_includes.join(',')}&realtime=${String(lookup.realtime)}`;
    const esEndpoint = `_doc/${encodeURIComponent(lookup.id)}?${query}` as const;
    return { kind, apiPath, esBody: '', esEndpoint, esMethod: 'GET', slug: querystringOrSlug };
  }
  if (kind === 'statistics') {
    body = buildStatisticsSearch(parseStatisticsQuery(querystringOrSlug));
    apiPath = `${API}/statistics${querystringOrSlug ? `?${querystringOrSlug}` : ''}`;
  } else if (kind === 'suggest') {
    body = buildSuggestSearch(parseSuggestQuery(querystringOrSlug));
    apiPath = `${API}/suggest?${querystringOrSlug}`;
  } else if (kind === 'release_package') {
    body = buildOcdsReleasePageSearch(ocdsReleasesQuery.parse(querystringOrSlug));
    apiPath = `${API}/ocds${querystringOrSlug ? `?${querystringOrSlug}` : ''}`;
  } else {
    apiPath = `${API}${querystringOrSlug ? `?${querystringOrSlug}` : ''}`;
    const searches = buildListSearches(parseListQuery(querystringOrSlug));
    if (searches.length === 2) {
      const esBody = searches.map((search) => `{}\n${JSON.stringify(search)}\n`).join('');
      return { kind, apiPath, esBody, esEndpoint: '_msearch' };
    }
    body = searches[0];
  }
  return { kind, apiPath, esBody: JSON.stringify(body), esEndpoint: '_search' };
}

/** The live records' values the mix draws from. */
interface Vocabulary {
  records: PpaRecord[];
  technologies: string[];
  tariffs: string[];
  riskFeatures: string[];
  years: number[];
  developers: string[];
}

function vocabularyOf(records: PpaRecord[]): Vocabulary {
  const distinct = <T>(values: T[]): T[] => [...new Set(values)].sort();
  return {
    records,
    technologies: distinct(records.map((record) => record.technology)),
    tariffs: distinct(records.map((record) => record.tariff)),
    riskFeatures: distinct(records.flatMap((record) => record.risk_features ?? [])),
    years: distinct(records.flatMap((record) => record.financial_close_year ?? [])),
    developers: distinct(records.map((record) => record.developer)),
  };
}

const query = (params: [string, string | number][]): string =>
  params.map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');

function words(text: string): string[] {
  return text.split(/[\s,/()]+/u).filter((word) => /\p{L}{3,}/u.test(word));
}

/** A word of three letters or more from the text (the whole text when it has none). */
function pickWord(random: Random, text: string): string {
  const candidates = words(text);
  return candidates.length > 0 ? random.pick(candidates) : text;
}

/** One typo (two adjacent letters swapped, never the first) in the first word of five letters or more. */
function withTypo(random: Random, text: string): string {
  const parts = text.split(' ');
  const index = parts.findIndex((word) => word.length >= 5 && /^\p{L}+$/u.test(word));
  if (index < 0) return text;
  const word = parts[index]!;
  const at = random.int(1, word.length - 2);
  parts[index] = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  return parts.join(' ');
}

function pageParams(random: Random): [string, string | number][] {
  if (random.chance(0.75)) return [];
  return random.chance(0.5) ? [['page', random.int(2, 5)]] : [['per_page', random.pick([10, 50, 100])]];
}

function plainList(random: Random): string {
  return query(random.pick([[], [], [['page', 2]], [['page', random.int(3, 40)]], [['per_page', 50]]]));
}

/**
 * The share of the mix's text searches that find nothing (issue 72): typed words with a slip past the forgiving
 * match, a partial last word, gibberish (./typedText.ts). Each asks for a "did you mean", as such searches do.
 */
export const MIX_MISS_SHARE = 0.2;

/** A text search of the list; `missShare` of them slipped (most find nothing). */
function textSearch(random: Random, vocabulary: Vocabulary, missShare = 0): string {
  const record = random.pick(vocabulary.records);
  const name = record.project_name;
  if (missShare > 0 && random.chance(missShare)) {
    return query([['q', slippedText(random, record)], ...pageParams(random)]);
  }
  const draw = random.next();
  let q: string;
  if (draw < 0.25) q = name;
  else if (draw < 0.4) q = withTypo(random, name);
  else if (draw < 0.55)
    q = name.slice(0, Math.max(3, Math.ceil(name.length * 0.6))).trim(); // typing
  else if (draw < 0.7) q = pickWord(random, record.location);
  else if (draw < 0.8) q = record.reference_code;
  else if (draw < 0.9) q = `${words(name)[0] ?? name} ${words(record.developer)[0] ?? ''}`.trim();
  else q = pickWord(random, record.developer);
  return query([['q', q], ...pageParams(random)]);
}

function filterParams(random: Random, vocabulary: Vocabulary): [string, string | number][] {
  const params: [string, string | number][] = [];
  const filters = random.sample(
    ['technology', 'tariff', 'year', 'risk', 'capacity', 'developer'],
    random.chance(0.5) ? 1 : random.int(2, 3),
  );
  for (const filter of filters) {
    if (filter === 'technology') {
      params.push(['technology', random.sample(vocabulary.technologies, random.int(1, 2)).join(',')]);
    } else if (filter === 'tariff') params.push(['tariff', random.pick(vocabulary.tariffs)]);
    else if (filter === 'year') params.push(['year', random.pick(vocabulary.years)]);
    else if (filter === 'risk') {
      for (const feature of random.sample(vocabulary.riskFeatures, random.int(1, 2))) {
        params.push(['risk_features[]', feature]);
      }
    } else if (filter === 'capacity') {
      const min = random.pick([0, 1, 5, 10, 50, 100]);
      if (random.chance(0.5)) params.push(['min_capacity', min]);
      if (random.chance(0.7)) params.push(['max_capacity', min + random.pick([10, 50, 200, 1000])]);
      else if (!params.some(([name]) => name === 'min_capacity')) params.push(['min_capacity', min]);
    } else {
      const developer = pickWord(random, random.pick(vocabulary.developers));
      params.push(['developer', developer.slice(0, Math.max(3, random.int(3, developer.length)))]);
    }
  }
  return params;
}

function filteredList(random: Random, vocabulary: Vocabulary): string {
  return query([...filterParams(random, vocabulary), ...pageParams(random)]);
}

function sortedList(random: Random, vocabulary: Vocabulary): string {
  const sort = random.pick(['name_asc', 'name_desc', 'capacity_desc', 'capacity_asc', 'oldest', 'recent']);
  const params: [string, string | number][] = random.chance(0.5) ? filterParams(random, vocabulary) : [];
  if (random.chance(0.2)) params.push(['q', pickWord(random, random.pick(vocabulary.records).location)]);
  return query([...params, ['sort', sort], ...pageParams(random)]);
}

function statistics(random: Random, vocabulary: Vocabulary): string {
  if (random.chance(0.3)) return '';
  if (random.chance(0.2)) return query([['q', pickWord(random, random.pick(vocabulary.records).location)]]);
  return query(filterParams(random, vocabulary));
}

export interface MixOptions {
  seed: number;
  /** Distinct requests in the mix (the load cycles through them). */
  size: number;
}

/**
 * `size` requests in a seeded shuffled order, the kinds in MIX_WEIGHTS proportions. `records` are live records
 * (published and active); detail lookups use them too.
 */
export function buildMix(records: PpaRecord[], options: MixOptions): MixRequest[] {
  if (records.length === 0) throw new Error('the mix needs at least one live record');
  const random = new Random(options.seed);
  const vocabulary = vocabularyOf(records);
  const total = Object.values(MIX_WEIGHTS).reduce((sum, weight) => sum + weight, 0);
  const mix: MixRequest[] = [];
  for (const kind of REQUEST_KINDS) {
    if (MIX_WEIGHTS[kind] === 0) continue;
    const count = Math.max(1, Math.round((options.size * MIX_WEIGHTS[kind]) / total));
    for (let index = 0; index < count; index++) {
      if (kind === 'detail') mix.push(mixRequest(kind, random.pick(records).slug));
      else if (kind === 'list_plain') mix.push(mixRequest(kind, plainList(random)));
      else if (kind === 'list_q') mix.push(mixRequest(kind, textSearch(random, vocabulary, MIX_MISS_SHARE)));
      else if (kind === 'list_filter') mix.push(mixRequest(kind, filteredList(random, vocabulary)));
      else if (kind === 'list_sort') mix.push(mixRequest(kind, sortedList(random, vocabulary)));
      else mix.push(mixRequest(kind, statistics(random, vocabulary)));
    }
  }
  // Fisher–Yates with the same PRNG: kinds interleave, and the order is the same on every run.
  for (let index = mix.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [mix[index], mix[other]] = [mix[other]!, mix[index]!];
  }
  return mix;
}

const LIST_KINDS: readonly RequestKind[] = ['list_plain', 'list_q', 'list_filter', 'list_sort'];

/**
 * The mix's list requests, each as it is and with all the facets: the same pages, and what the facets add.
 */
export function facetPairs(mix: readonly MixRequest[]): { plain: MixRequest[]; faceted: MixRequest[] } {
  const plain = mix.filter((request) => LIST_KINDS.includes(request.kind));
  return { plain, faceted: withFacets(plain, FACET_NAMES) };
}

/**
 * The mix's list requests with `facets=flags`, and the same with `facets=technology` (issue 74: the flags facet
 * may cost at most 1.1× the technology facet; both disjunctive, one multi-valued).
 */
export function flagFacetPairs(mix: readonly MixRequest[]): {
  flags: MixRequest[];
  technology: MixRequest[];
} {
  const lists = mix.filter((request) => LIST_KINDS.includes(request.kind));
  return { flags: withFacets(lists, ['flags']), technology: withFacets(lists, ['technology']) };
}

function withFacets(lists: readonly MixRequest[], names: readonly string[]): MixRequest[] {
  return lists.map((request) => {
    const querystring = request.apiPath.includes('?')
      ? request.apiPath.slice(request.apiPath.indexOf('?') + 1)
      : '';
    const facets = `facets=${names.join(',')}`;
    return mixRequest('list_facets', querystring ? `${querystring}&${facets}` : facets);
  });
}

/**
 * The mix's list requests as first pages (page left out: a release package pages by cursor), each as a list page
 * and as the release package of the same request: pages of the same size and the same PPAs, side by side.
 */
export function releasePackagePairs(mix: readonly MixRequest[]): {
  lists: MixRequest[];
  packages: MixRequest[];
} {
  const querystrings = mix
    .filter((request) => LIST_KINDS.includes(request.kind))
    .map((request) => {
      const params = new URLSearchParams(request.apiPath.slice(request.apiPath.indexOf('?') + 1));
      if (!request.apiPath.includes('?')) return '';
      params.delete('page');
      return params.toString();
    });
  return {
    lists: querystrings.map((querystring) => mixRequest('list_plain', querystring)),
    packages: querystrings.map((querystring) => mixRequest('release_package', querystring)),
  };
}

/**
 * What people type into a search box, keystroke by keystroke: the start of a live record's name (its first words,
 * then 1 to all letters of the next), a third of them with one typo. `size` requests, seeded.
 */
export function buildSuggestMix(records: PpaRecord[], options: MixOptions): MixRequest[] {
  const random = new Random(options.seed + 16);
  const mix: MixRequest[] = [];
  while (mix.length < options.size) {
    const words = random.pick(records).project_name.split(' ');
    const at = random.int(0, words.length - 1);
    const word = words[at] ?? '';
    const typed = [...words.slice(0, at), word.slice(0, random.int(1, Math.max(1, word.length)))].join(' ');
    const q = random.chance(0.33) ? withTypo(random, typed) : typed;
    mix.push(mixRequest('suggest', `q=${encodeURIComponent(q)}&limit=10`));
  }
  return mix;
}

/**
 * `size` distinct requests of the mix's kinds (no two with the same API path), in a seeded order: for runs in
 * which no request may repeat. The mix is drawn larger and deduplicated, so kinds with few distinct forms (the
 * unfiltered statistics, the first pages) weigh less than in buildMix.
 */
export function buildDistinctMix(records: PpaRecord[], options: MixOptions & { exclude?: Set<string> }) {
  const seen = new Set(options.exclude);
  const distinct: MixRequest[] = [];
  for (let round = 0; distinct.length < options.size && round < 20; round++) {
    for (const request of buildMix(records, { seed: options.seed + round * 7919, size: options.size * 2 })) {
      if (seen.has(request.apiPath)) continue;
      seen.add(request.apiPath);
      distinct.push(request);
      if (distinct.length === options.size) break;
    }
  }
  if (distinct.length < options.size) throw new Error(`only ${distinct.length} distinct requests`);
  return distinct;
}

/**
 * `size` distinct text searches of the list (the mix's list_q kind: names, typos, a name being typed, places,
 * reference codes, a name word and a developer word), seeded.
 */
export function buildTextSearchMix(records: PpaRecord[], options: MixOptions): MixRequest[] {
  const random = new Random(options.seed + 71);
  const vocabulary = vocabularyOf(records);
  const seen = new Set<string>();
  const mix: MixRequest[] = [];
  for (let tries = 0; mix.length < options.size && tries < options.size * 50; tries++) {
    const request = mixRequest('list_q', textSearch(random, vocabulary));
    if (seen.has(request.apiPath)) continue;
    seen.add(request.apiPath);
    mix.push(request);
  }
  if (mix.length < options.size) throw new Error(`only ${mix.length} distinct text searches`);
  return mix;
}

/** `size` distinct filtered statistics requests (never the unfiltered one), seeded. */
export function buildStatisticsMix(records: PpaRecord[], options: MixOptions & { exclude?: Set<string> }) {
  const random = new Random(options.seed + 31);
  const vocabulary = vocabularyOf(records);
  const seen = new Set(options.exclude);
  const mix: MixRequest[] = [];
  for (let tries = 0; mix.length < options.size && tries < options.size * 50; tries++) {
    const querystring = query(filterParams(random, vocabulary));
    const request = mixRequest('statistics', querystring);
    if (querystring === '' || seen.has(request.apiPath)) continue;
    seen.add(request.apiPath);
    mix.push(request);
  }
  if (mix.length < options.size) throw new Error(`only ${mix.length} distinct statistics requests`);
  return mix;
}

/**
 * A request sequence of `length` drawn from `pool` with Zipf popularity (the request of rank k is asked with
 * probability proportional to 1/k^s), seeded: what public traffic looks like, a few requests very popular.
 */
export function zipfSequence(pool: MixRequest[], options: { seed: number; length: number; s: number }) {
  const random = new Random(options.seed + 53);
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= pool.length; rank++) cumulative.push((sum += 1 / rank ** options.s));
  const sequence: MixRequest[] = [];
  for (let index = 0; index < options.length; index++) {
    const target = random.next() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    sequence.push(pool[low]!);
  }
  return sequence;
}
