// GET /api/v1/parties and /api/v1/parties/{id} → searches of the parties' index (indexContract/parties.ts). `q` is
// forgiving as the list's: every word must match a word of a name or an alias (folded: case and accents aside), with
// one typo in words of five letters or more, the last word also as a prefix; a whole-phrase match ranks first.
import type { estypes } from '@elastic/elasticsearch';
import type { PartyDocument } from '../../indexContract/parties.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import type { PartiesQuery, PartySort } from '../params/parties.js';

type Query = estypes.QueryDslQueryContainer;

const NAMES = 'names_folded';
/** Words this long or longer take one typo (the list's rule). */
const TYPO_FROM = 5;

const SORTS: Record<PartySort, estypes.SortCombinations[]> = {
  ppas_desc: [{ ppas: 'desc' }, { id: 'asc' }],
  relevance: ['_score', { id: 'asc' }],
  capacity_desc: [{ capacity_mw: 'desc' }, { id: 'asc' }],
  guaranteed_desc: [{ guaranteed_amount_usd: 'desc' }, { id: 'asc' }],
  name_asc: [{ name_sort: 'asc' }, { id: 'asc' }],
};

/** The fields of a party the answers read. */
export type PartySource = PartyDocument;

/** One word of `q`: the word, with a typo when long enough; the last one also as a prefix. */
function wordClause(word: string, last: boolean): Query {
  const should: Query[] = [
    { match: { [NAMES]: { query: word, fuzziness: word.length >= TYPO_FROM ? 1 : 0, prefix_length: 0 } } },
  ];
  if (last) should.push({ prefix: { [NAMES]: { value: word } } });
  return { bool: { should, minimum_should_match: 1 } };
}

/** The text query of `words`: all must match; the words as a phrase, and as typed, rank above. */
export function namesQuery(words: readonly string[]): Query {
  return {
    bool: {
      must: words.map((word, position) => wordClause(word, position === words.length - 1)),
      should: [{ match_phrase: { [NAMES]: { query: words.join(' '), boost: 2 } } }],
    },
  };
}

/** The parties' list search: filters, `q`, order, page or cursor. */
export function buildPartiesSearch(query: PartiesQuery): SearchRequestBody {
  const filter: Query[] = [];
  if (query.roles) filter.push({ terms: { role_names: query.roles } });
  const mustNot: Query[] = [];
  if (query.country) {
    if (query.country.chosen.length > 0) filter.push({ terms: { countries: query.country.chosen } });
    if (query.country.left.length > 0) mustNot.push({ terms: { countries: query.country.left } });
  }
  const must = query.words ? [namesQuery(query.words)] : [];
  const paging =
    query.cursor === undefined
      ? { from: (query.page - 1) * query.perPage }
      : query.cursor.start
        ? {}
        : { search_after: query.cursor.after };
  return {
    query: { bool: { filter, must, must_not: mustNot } },
    sort: SORTS[query.sort],
    size: query.perPage,
    track_total_hits: true,
    ...paging,
  };
}

/** Parties by id (a party's page, its partners' names). */
export function buildPartiesByIdSearch(ids: readonly string[]): SearchRequestBody {
  return { query: { terms: { id: [...ids] } }, size: ids.length };
}
