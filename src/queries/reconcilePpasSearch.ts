// The searches of the PPA reconciliation service: one per query of a batch (sent together, one _msearch), one for a
// data extension's or a preview's ids. A query's search only gathers candidates: every published, active PPA whose
// name or reference code is the query's, or near it; they are scored and matched afterwards, from what they are
// (src/present/reconcileCandidates.ts), so Elasticsearch's own score never reaches the client.
import type { estypes } from '@elastic/elasticsearch';
import { groupKey } from '../../indexContract/counterparties.js';
import {
  NAME_EXACT_FIELD,
  NAME_FOLDED_FIELD,
  REFERENCE_CODE_FOLDED_FIELD,
  REFERENCE_CODE_LOWERCASE_FIELD,
} from '../../indexContract/fields.js';
import type { IndexDocument } from '../../indexContract/document.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { comparableName } from '../matching/reconcileNames.js';
import { MAX_CANDIDATES, type ReconcileQuery } from '../params/reconcile.js';
import { FIRST_LETTER_AS_TYPED, FUZZINESS, typoTolerance } from '../matching/typoRules.js';

type Query = estypes.QueryDslQueryContainer;

/** What a candidate, a preview and a data extension read of a PPA. */
export const RECONCILE_PPA_SOURCE_FIELDS = [
  'slug',
  'project_name',
  'reference_code',
  'developer',
  'country_code',
  'technology',
  'tariff',
  'capacity_mw',
  'financial_close_year',
  'fiscal',
] as const satisfies readonly (keyof IndexDocument)[];

export type ReconcilePpaSource = Pick<IndexDocument, (typeof RECONCILE_PPA_SOURCE_FIELDS)[number]>;

/**
 * Candidates gathered per query before scoring: more than the most a query may ask for, so that the ones the
 * scoring puts first are among them, and so that every PPA whose name is the query's is seen (the match rule
 * needs to know whether another one is).
 */
export const CANDIDATE_POOL = MAX_CANDIDATES + 15;
/** The name or reference code is the query's: first, always gathered. */
const EXACT_BOOST = 100;
/** A word of the name near a word of the query: gathered even when other words (a legal form, a typo) are not. */
const NEAR_WORDS_SHARE = '50%';

/**
 * The typo rules of `q` (one typo from five letters, two from eight, the first letter as typed), but not its every
 * form: a batch runs fifty of these at once, and what is gathered is ranked again by the name's similarity.
 */
export const NEAR_WORD = typoTolerance(FUZZINESS, FIRST_LETTER_AS_TYPED);

/**
 * What gathers the candidates of one query: its name or code exactly, or half of its comparable words (legal forms
 * and punctuation left out) near the name's, by `q`'s typo rules.
 */
export function candidateQuery(text: string): Query {
  const comparable = comparableName(text);
  const names = [...new Set([groupKey(text), foldText(text.trim())])];
  const should: Query[] = [
    { constant_score: { filter: { terms: { [NAME_EXACT_FIELD]: names } }, boost: EXACT_BOOST } },
    {
      constant_score: {
        filter: { term: { [REFERENCE_CODE_LOWERCASE_FIELD]: text.trim().toLowerCase() } },
        boost: EXACT_BOOST,
      },
    },
    { match: { [REFERENCE_CODE_FOLDED_FIELD]: { query: foldText(text), operator: 'and' } } },
  ];
  if (comparable !== '') {
    should.push({
      match: {
        [NAME_FOLDED_FIELD]: { query: comparable, ...NEAR_WORD, minimum_should_match: NEAR_WORDS_SHARE },
      },
    });
  }
  return { bool: { should, minimum_should_match: 1 } };
}

export function buildReconcilePpaSearch(query: ReconcileQuery): SearchRequestBody {
  return {
    query: { bool: { filter: [{ term: { active: true } }], must: [candidateQuery(query.query)] } },
    sort: [{ _score: { order: 'desc' } }, { slug: { order: 'asc' } }],
    size: CANDIDATE_POOL,
    track_total_hits: false,
    _source: [...RECONCILE_PPA_SOURCE_FIELDS],
  };
}

/** Published, active PPAs by slug (a data extension's ids, a preview's id). */
export function buildPpasBySlugSearch(slugs: readonly string[]): SearchRequestBody {
  return {
    query: { bool: { filter: [{ term: { active: true } }, { terms: { slug: [...slugs] } }] } },
    size: slugs.length,
    track_total_hits: false,
    _source: [...RECONCILE_PPA_SOURCE_FIELDS],
  };
}
