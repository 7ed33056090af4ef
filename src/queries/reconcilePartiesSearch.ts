// The searches of the parties' reconciliation service, on the parties of the served generation (`<alias>-parties`,
// indexContract/parties.ts): one per query of a batch (sent together, one _msearch), one for a data extension's or a
// preview's ids, one for the suggestions. A query's search only gathers candidates: the party its text names (its id
// is made from the text's group key, so it is always gathered), and parties with a name near it; they are scored
// and matched afterwards (src/present/reconcileCandidates.ts).
import type { estypes } from '@elastic/elasticsearch';
import { partyIdOf, type PartyDocument } from '../../indexContract/parties.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { comparableName } from '../matching/reconcileNames.js';
import type { ReconcileQuery, SuggestParams } from '../params/reconcile.js';
import { CANDIDATE_POOL, NEAR_WORD } from './reconcilePpasSearch.js';

type Query = estypes.QueryDslQueryContainer;

/** The field every spelling of a party is searched in (folded, spaces collapsed; mappings/parties.json). */
const NAMES_FIELD = 'names_folded';

/** What a candidate, a preview and a data extension read of a party. */
export const RECONCILE_PARTY_SOURCE_FIELDS = [
  'id',
  'name',
  'aliases',
  'roles',
  'role_names',
  'ppas',
  'capacity_mw',
  'guaranteed_amount_usd',
  'countries',
] as const satisfies readonly (keyof PartyDocument)[];

export type ReconcilePartySource = Pick<PartyDocument, (typeof RECONCILE_PARTY_SOURCE_FIELDS)[number]>;

/** The party the text names: first, always gathered. */
const NAMED_BOOST = 100;
/** The text's words in a spelling, in order. */
const PHRASE_BOOST = 5;
/** Words of a spelling near the text's: gathered even when other words (a legal form, a typo) are not. */
const NEAR_WORDS_SHARE = '50%';

export function partyCandidateQuery(text: string): Query {
  const comparable = comparableName(text);
  const should: Query[] = [
    { constant_score: { filter: { term: { id: partyIdOf(text) } }, boost: NAMED_BOOST } },
  ];
  if (comparable !== '') {
    should.push(
      { match_phrase: { [NAMES_FIELD]: { query: comparable, boost: PHRASE_BOOST } } },
      {
        match: {
          [NAMES_FIELD]: { query: comparable, ...NEAR_WORD, minimum_should_match: NEAR_WORDS_SHARE },
        },
      },
    );
  }
  return { bool: { should, minimum_should_match: 1 } };
}

export function buildReconcilePartySearch(query: ReconcileQuery): SearchRequestBody {
  return {
    query: partyCandidateQuery(query.query),
    // Equal scores: the party with more PPAs first, then by id (a stable order for the same input).
    sort: [{ _score: { order: 'desc' } }, { ppas: { order: 'desc' } }, { id: { order: 'asc' } }],
    size: CANDIDATE_POOL,
    track_total_hits: false,
    _source: [...RECONCILE_PARTY_SOURCE_FIELDS],
  };
}

/** Parties by id (a data extension's ids, a preview's id). */
export function buildPartiesByIdSearch(ids: readonly string[]): SearchRequestBody {
  return {
    query: { bool: { filter: [{ terms: { id: [...ids] } }] } },
    size: ids.length,
    track_total_hits: false,
    _source: [...RECONCILE_PARTY_SOURCE_FIELDS],
  };
}

/** Parties whose spellings hold the prefix's words, the last as the start of a word: most PPAs first. */
export function buildPartySuggestSearch({ prefix, cursor, limit }: SuggestParams): SearchRequestBody {
  return {
    query: { match_bool_prefix: { [NAMES_FIELD]: { query: foldText(prefix), operator: 'and' } } },
    sort: [{ _score: { order: 'desc' } }, { ppas: { order: 'desc' } }, { id: { order: 'asc' } }],
    from: cursor,
    size: limit,
    track_total_hits: false,
    _source: [...RECONCILE_PARTY_SOURCE_FIELDS],
  };
}
