// A statistics request's plan: the one size-0 search of the topics and, with group_by, the first page of each
// roll-up walk in it; then the walks' next pages, each a size-0 search of its own, until every walk has ended. The
// walks are bounded (MAX_GROUP_PAGES), so a roll-up's cost is too.
import type { estypes } from '@elastic/elasticsearch';
import { BadRequestError } from '../http/problem.js';
import type { SearchGateway } from '../gateway/gateway.js';
import type { StatisticsQuery } from '../params/statistics.js';
import {
  GROUP_PAGE_SIZE,
  GROUPS_AGGREGATION,
  groupAggregations,
  groupsInOnePass,
  onePassGroups,
  PAIRS_AGGREGATION,
  nextPosition,
  walksOf,
  type CompositeKey,
  type CompositePage,
  type GroupBucket,
  type WalkName,
} from './groupAggregations.js';
import {
  buildPartyGroupsSearch,
  NULL_GROUP_AGGREGATION,
  nullGroupAggregation,
  partyGroupsOf,
  partyRollUpRole,
  type PartyGroups,
  type PartyRoleSource,
} from './partyGroups.js';
import { buildStatisticsSearch, type StatisticsAggregations } from './statisticsSearch.js';

/** The one-pass terms aggregation of the first dimension's groups, beside the topics. */
const ONE_PASS_AGGREGATION = 'roll_up_groups_one_pass';

/** Pages a roll-up may walk in all: 300,000 groups and pairs, three for every PPA of a 100k-record index. */
export const MAX_GROUP_PAGES = 30;

export interface StatisticsResult {
  response: estypes.SearchResponse<unknown, StatisticsAggregations>;
  /** With group_by: every bucket of each walk. */
  walks?: ReadonlyMap<WalkName, GroupBucket[]>;
  /** With group_by of a counterparty over the whole active set: the groups the parties hold, and the null group. */
  parties?: { groups: PartyGroups; nullGroup: NullGroupBucket };
}

/** The PPAs without a value in the role (a `missing` aggregation with the groups' figures). */
export type NullGroupBucket = Omit<GroupBucket, 'key'>;

/**
 * A counterparty roll-up of the whole active set, from the parties (partyGroups.ts) beside the topics and the null
 * group; undefined when the served generation has no parties (an older index: grouped from the PPAs instead).
 */
async function fromParties(
  query: StatisticsQuery,
  gateway: SearchGateway,
): Promise<StatisticsResult | undefined> {
  const role = partyRollUpRole(query);
  if (role === undefined || !query.groups) return undefined;
  const topics = buildStatisticsSearch(query);
  const startedAt = performance.now();
  const [response, parties] = await Promise.all([
    gateway.search<unknown, StatisticsAggregations>(
      { ...topics, aggs: { ...topics.aggs, ...nullGroupAggregation(role) } },
      { startedAt },
    ),
    gateway.searchParties<PartyRoleSource>(buildPartyGroupsSearch(role, query.groups)),
  ]);
  const groups = partyGroupsOf(role, parties);
  const nullGroup = (response.aggregations as Record<string, unknown> | undefined)?.[NULL_GROUP_AGGREGATION];
  if (!groups || !nullGroup) return undefined;
  return { response, parties: { groups, nullGroup: nullGroup as NullGroupBucket } };
}

export async function runStatistics(
  query: StatisticsQuery,
  gateway: SearchGateway,
): Promise<StatisticsResult> {
  const topics = buildStatisticsSearch(query);
  if (!query.groups) return { response: await gateway.search<unknown, StatisticsAggregations>(topics) };
  const answered = await fromParties(query, gateway);
  if (answered) return answered;
  const groups = query.groups;
  const walks = new Map<WalkName, GroupBucket[]>();
  // The groups come from the one pass unless it left keys out; a pivot's pairs are walked from the first search.
  const positions = new Map<WalkName, CompositeKey | undefined>();
  for (const name of walksOf(groups).keys()) walks.set(name, []);
  if (walks.has(PAIRS_AGGREGATION)) positions.set(PAIRS_AGGREGATION, undefined);
  const takePages = (aggregations: Record<string, unknown> | undefined) => {
    for (const name of [...positions.keys()]) {
      const page = aggregations?.[name] as CompositePage | undefined;
      if (!page) throw new Error(`statistics: the roll-up walk ${name} gave no page`);
      walks.get(name)!.push(...page.buckets);
      const next = nextPosition(page);
      if (next === undefined) positions.delete(name);
      else positions.set(name, next);
    }
  };
  // Every page shares the first search's deadline: the whole roll-up answers within ES_REQUEST_TIMEOUT_MS.
  const startedAt = performance.now();
  const response = await gateway.search<unknown, StatisticsAggregations>(
    {
      ...topics,
      aggs: {
        ...topics.aggs,
        [ONE_PASS_AGGREGATION]: groupsInOnePass(groups.dimensions[0]!),
        ...groupAggregations(groups, positions),
      },
    },
    { startedAt },
  );
  const aggregations = response.aggregations as Record<string, unknown> | undefined;
  const onePass = aggregations?.[ONE_PASS_AGGREGATION];
  if (!onePass) throw new Error('statistics: the roll-up gave no groups');
  const groupsFound = onePassGroups(onePass as Parameters<typeof onePassGroups>[0]);
  takePages(aggregations);
  if (groupsFound) walks.set(GROUPS_AGGREGATION, groupsFound);
  else positions.set(GROUPS_AGGREGATION, undefined);
  for (let pages = 1; positions.size > 0; pages++) {
    if (pages >= MAX_GROUP_PAGES) throw tooManyGroups();
    const next = await gateway.search(
      {
        query: topics.query,
        size: 0,
        track_total_hits: false,
        aggs: groupAggregations(groups, positions),
      },
      { startedAt },
    );
    takePages(next.aggregations as Record<string, unknown> | undefined);
  }
  return { response, walks };
}

function tooManyGroups(): BadRequestError {
  return new BadRequestError([
    {
      name: 'group_by',
      reason: `makes more than ${(MAX_GROUP_PAGES * GROUP_PAGE_SIZE).toLocaleString('en')} groups: narrow the selection with filters`,
    },
  ]);
}
