// A roll-up of counterparties (developer, offtaker, procuring_entity) over the whole active set, read from the
// parties of the served generation (indexContract/parties.ts: each party's group in each role, summed by the indexer
// from its PPAs) instead of grouping every PPA: the first group_limit groups in group_sort's order, and the sums of
// every group for `other`. The PPAs without a value in the role (the null group) come from the statistics' search.
// Only without filters and q: any selection narrower than the active set is grouped from its PPAs.
import type { estypes } from '@elastic/elasticsearch';
import { GROUP_FIELDS } from '../../indexContract/groupFields.js';
import { PARTY_ROLE_NAMES, type PartyRole, type RoleGroup } from '../../indexContract/parties.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { filterClauses } from '../params/filters.js';
import type { GroupQuery, GroupSort } from '../params/groupBy.js';
import type { StatisticsQuery } from '../params/statistics.js';
import { GROUP_METRICS } from './groupAggregations.js';

/** The figure each group_sort orders by, as the parties hold it rounded (none: by key alone). */
const SORT_FIELDS: Record<GroupSort, string | null> = {
  capacity_desc: 'rounded.capacity_mw',
  ppas_desc: 'ppas',
  annual_payment_desc: 'rounded.annual_payment_obligation_usd',
  guaranteed_desc: 'rounded.guaranteed_amount_usd',
  key_asc: null,
};

/** The aggregation of the statistics' search that holds the PPAs without a value in the role. */
export const NULL_GROUP_AGGREGATION = 'roll_up_null_group';

/** The sums over every group of the role, by figure. */
export const ROLE_SUMS = [
  'ppas',
  'capacity_mw',
  'annual_payment_obligation_usd',
  'guaranteed_amount_usd',
  'ppas_with_disclosed_amounts',
] as const satisfies readonly (keyof RoleGroup)[];

/** The role of a roll-up the parties answer: one counterparty dimension over the whole active set. */
export function partyRollUpRole(query: StatisticsQuery): PartyRole | undefined {
  const dimensions = query.groups?.dimensions ?? [];
  const [dimension] = dimensions;
  if (dimensions.length !== 1 || query.q !== undefined || filterClauses(query).length > 0) return undefined;
  return PARTY_ROLE_NAMES.find((role) => role === dimension);
}

/** The first `limit` groups of the role in the sort's order (ties by group key), with every group's sums. */
export function buildPartyGroupsSearch(role: PartyRole, groups: GroupQuery): SearchRequestBody {
  const field = (name: string) => `by_role.${role}.${name}`;
  const figure = SORT_FIELDS[groups.sort];
  return {
    query: { exists: { field: field('ppas') } },
    sort: [
      ...(figure ? [{ [field(figure)]: 'desc' as const }] : []),
      { [field('group_key')]: 'asc' as const },
    ],
    size: groups.limit,
    track_total_hits: true,
    _source: ['id', `by_role.${role}`],
    aggs: Object.fromEntries(ROLE_SUMS.map((name) => [name, { sum: { field: field(name) } }])),
  };
}

/** The null group's figures, beside the statistics' topics. */
export const nullGroupAggregation = (
  role: PartyRole,
): Record<string, estypes.AggregationsAggregationContainer> => ({
  [NULL_GROUP_AGGREGATION]: { missing: { field: GROUP_FIELDS[role] }, aggs: GROUP_METRICS },
});

/** A party's groups as the roll-up reads them. */
export interface PartyRoleSource {
  id: string;
  by_role: Partial<Record<PartyRole, RoleGroup>>;
}

/** What the parties give a roll-up. */
export interface PartyGroups {
  role: PartyRole;
  /** The first groups in order, each with its party id. */
  groups: { id: string; group: RoleGroup }[];
  /** Groups of the role in all (the null group aside). */
  total: number;
  /** Every group's figures summed (the null group aside). */
  sums: Record<(typeof ROLE_SUMS)[number], number>;
}

/** The parties' answer as the roll-up reads it; undefined when the served generation has no parties. */
export function partyGroupsOf(
  role: PartyRole,
  response: estypes.SearchResponse<PartyRoleSource>,
): PartyGroups | undefined {
  if ((response._shards?.total ?? 0) === 0) return undefined;
  const total = response.hits.total;
  const aggregations = (response.aggregations ?? {}) as Record<string, { value: number | null }>;
  return {
    role,
    groups: response.hits.hits.map((hit) => ({ id: hit._source!.id, group: hit._source!.by_role[role]! })),
    total: typeof total === 'number' ? total : (total?.value ?? 0),
    sums: Object.fromEntries(
      ROLE_SUMS.map((name) => [name, aggregations[name]?.value ?? 0]),
    ) as PartyGroups['sums'],
  };
}
