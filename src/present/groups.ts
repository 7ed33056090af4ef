// A roll-up's walks → data.groups and data.groups_meta of the statistics body. Pure: the spellings of a name
// merged by group key (the most common shown), the figures rounded as fiscal_exposure rounds them, the order,
// the cut, `other` (the groups not shown, their PPAs' sums rounded once), the party ids of the counterparties'
// groups, and a pivot's groups
// of the second dimension under each group of the first.
import { groupKey } from '../../indexContract/counterparties.js';
import { PARTY_ROLE_NAMES, partyIdOfKey } from '../../indexContract/parties.js';
import {
  DIMENSION_NAMES,
  GROUP_DIMENSIONS,
  type DimensionName,
  type GroupQuery,
  type GroupSort,
} from '../params/groupBy.js';
import type { PartyGroups } from '../queries/partyGroups.js';
import type { NullGroupBucket } from '../queries/statisticsPlan.js';
import {
  GROUPS_AGGREGATION,
  PAIRS_AGGREGATION,
  sourceName,
  type GroupBucket,
  type WalkName,
} from '../queries/groupAggregations.js';
import { roundMw, roundShare, roundUsd } from './rounding.js';
import {
  count,
  fraction,
  megawatts,
  nullable,
  oneOf,
  record,
  Type,
  type Static,
} from '../wire/bodySchema.js';

const figures = {
  ppas: Type.Integer({ minimum: 1, description: 'PPAs in the group (never 0).' }),
  capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
  share_of_capacity: fraction("Their capacity's share of the selection's, rounded to 0.0001."),
  annual_payment_obligation_usd: count('Sum of their disclosed annual payment obligations, whole USD.'),
  guaranteed_amount_usd: count('Sum of their disclosed guaranteed amounts, whole USD.'),
  ppas_with_disclosed_amounts: count('Those with an annual payment obligation or a guaranteed amount.'),
};
const key = Type.Union([Type.String(), Type.Integer(), Type.Null()], {
  description:
    'The value (a name in its most common spelling; the year as a number); null: the PPAs without a value.',
});

const GroupsMetaSchema = record({
  dimension: oneOf(DIMENSION_NAMES, { description: 'What the groups are groups of.' }),
  total_groups: count('Groups in all, shown or not.'),
  other: record(
    {
      groups: count('Groups not shown.'),
      ppas: count('PPAs of the groups not shown, as summed group by group.'),
      capacity_mw: megawatts(
        'Their capacity: the sum over the PPAs of the groups not shown (group by group), rounded once (0.1 MW).',
      ),
      share_of_capacity: Type.Number({
        minimum: 0,
        description:
          "That capacity's share of the selection's (0.0001); over 1 where a PPA counts in several groups.",
      }),
      annual_payment_obligation_usd: count(
        'Sum over the PPAs of the groups not shown (group by group), rounded once to whole USD.',
      ),
      guaranteed_amount_usd: count(
        'Sum over the PPAs of the groups not shown (group by group), rounded once to whole USD.',
      ),
      ppas_with_disclosed_amounts: count('Sum over the groups not shown.'),
    },
    'The groups past group_limit, summed exactly: the sums over their PPAs, rounded once.',
  ),
});
export type GroupsMeta = Static<typeof GroupsMetaSchema>;

const partyId = Type.Optional(
  nullable(
    Type.String({
      description:
        'developer, offtaker and procuring_entity only: the party of the group (GET /api/v1/parties/{id}); null for the group without a value.',
    }),
  ),
);

const GroupSchema = record({ key, party_id: partyId, ...figures });
export type Group = Static<typeof GroupSchema>;
const PivotGroupSchema = record({
  key,
  party_id: partyId,
  ...figures,
  groups: Type.Array(GroupSchema, { description: 'The groups of the second dimension within this one.' }),
  groups_meta: GroupsMetaSchema,
});
export type PivotGroup = Static<typeof PivotGroupSchema>;

/** data.groups and data.groups_meta, present with group_by only. */
export const GROUPS_PROPERTIES = {
  groups: Type.Optional(
    Type.Array(Type.Union([GroupSchema, PivotGroupSchema]), {
      description:
        'With group_by: the first group_limit groups in group_sort order (a pivot: each with its own).',
    }),
  ),
  groups_meta: Type.Optional(GroupsMetaSchema),
};

export interface GroupsPart {
  groups: (Group | PivotGroup)[];
  groups_meta: GroupsMeta;
}

type Key = string | number | null;

/** One group's sums before rounding, and the spellings its PPAs carry (names only). */
interface Tally {
  /** What it is merged by: the group key of a name, the value otherwise. */
  mergeKey: Key;
  /** Its spelling, while it has one (nearly every group), and how many PPAs carry it. */
  spelling?: string;
  spellingPpas: number;
  /** Every spelling and its PPAs, once a second one is seen. */
  spellings?: Map<string, number>;
  ppas: number;
  capacity: number;
  annualPayment: number;
  guaranteed: number;
  disclosed: number;
}

function mergeKeyOf(value: Key, dimension: DimensionName): Key {
  return GROUP_DIMENSIONS[dimension].names && typeof value === 'string' ? groupKey(value) : value;
}

function addBucket(
  tallies: Map<Key, Tally>,
  value: Key,
  bucket: GroupBucket,
  dimension: DimensionName,
): void {
  const mergeKey = mergeKeyOf(value, dimension);
  let tally = tallies.get(mergeKey);
  if (!tally) {
    tally = {
      mergeKey,
      spellingPpas: 0,
      ppas: 0,
      capacity: 0,
      annualPayment: 0,
      guaranteed: 0,
      disclosed: 0,
    };
    tallies.set(mergeKey, tally);
  }
  if (typeof value === 'string') countSpelling(tally, value, bucket.doc_count);
  tally.ppas += bucket.doc_count;
  tally.capacity += bucket.capacity_mw.value ?? 0;
  tally.annualPayment += bucket.annual_payment_obligation_usd.value ?? 0;
  tally.guaranteed += bucket.guaranteed_amount_usd.value ?? 0;
  tally.disclosed += bucket.with_disclosed_amounts.doc_count;
}

/** The spelling most PPAs of the group carry; ties by code point. */
/** Counts `ppas` PPAs spelling the group `value`: a map of spellings only once a second one is seen. */
function countSpelling(tally: Tally, value: string, ppas: number): void {
  if (tally.spellings) {
    tally.spellings.set(value, (tally.spellings.get(value) ?? 0) + ppas);
  } else if (tally.spelling === undefined || tally.spelling === value) {
    tally.spelling = value;
    tally.spellingPpas += ppas;
  } else {
    tally.spellings = new Map([
      [tally.spelling, tally.spellingPpas],
      [value, ppas],
    ]);
  }
}

/** The spelling most PPAs of the group carry; ties by code point. */
function shownKey(tally: Tally): Key {
  if (!tally.spellings) return tally.spelling ?? tally.mergeKey;
  let best: [string, number] | undefined;
  for (const entry of tally.spellings) {
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  return best![0];
}

/** The roll-ups whose groups are parties (indexContract/parties.ts): their groups carry the party's id. */
const PARTY_DIMENSIONS: ReadonlySet<DimensionName> = new Set(PARTY_ROLE_NAMES);

function present(tally: Tally, totalCapacity: number, dimension: DimensionName): Group {
  return {
    key: shownKey(tally),
    ...(PARTY_DIMENSIONS.has(dimension)
      ? { party_id: typeof tally.mergeKey === 'string' ? partyIdOfKey(tally.mergeKey) : null }
      : {}),
    ppas: tally.ppas,
    capacity_mw: roundMw(tally.capacity),
    share_of_capacity: totalCapacity > 0 ? roundShare(tally.capacity / totalCapacity) : 0,
    annual_payment_obligation_usd: roundUsd(tally.annualPayment),
    guaranteed_amount_usd: roundUsd(tally.guaranteed),
    ppas_with_disclosed_amounts: tally.disclosed,
  };
}

/** A group in the making: shown as `group`, ordered by its merge key (a name's group key) then its shown key. */
interface Entry {
  group: Group;
  tally: Tally;
}

/** Merge keys in order: numbers as numbers, names by group key, null last. */
function compareMergeKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** The figure each group_sort orders by, largest first (none: by key alone). */
export const GROUP_SORT_FIGURES = {
  capacity_desc: 'capacity_mw',
  ppas_desc: 'ppas',
  annual_payment_desc: 'annual_payment_obligation_usd',
  guaranteed_desc: 'guaranteed_amount_usd',
  key_asc: null,
} as const satisfies Record<GroupSort, keyof Group | null>;

const SORTS = Object.fromEntries(
  Object.entries(GROUP_SORT_FIGURES).map(([sort, figure]) => [
    sort,
    figure === null ? () => 0 : (group: Group) => group[figure],
  ]),
) as Record<GroupSort, (group: Group) => number>;

/** By the sort's figure, ties by key (the group key, read once a group, then the spelling shown). */
function sortEntries(entries: Entry[], sort: GroupSort): Entry[] {
  const measure = SORTS[sort];
  return entries.sort(
    (a, b) =>
      measure(b.group) - measure(a.group) ||
      compareMergeKeys(a.tally.mergeKey, b.tally.mergeKey) ||
      (String(a.group.key) < String(b.group.key) ? -1 : String(a.group.key) > String(b.group.key) ? 1 : 0),
  );
}

/** The groups not shown: the sums over their PPAs (group by group, as unrounded as Elasticsearch gave them), rounded once. */
function otherOf(hidden: readonly Tally[], totalCapacity: number): GroupsMeta['other'] {
  const sum = (of: (tally: Tally) => number) => hidden.reduce((total, tally) => total + of(tally), 0);
  const capacity = sum((tally) => tally.capacity);
  return {
    groups: hidden.length,
    ppas: sum((tally) => tally.ppas),
    capacity_mw: roundMw(capacity),
    share_of_capacity: totalCapacity > 0 ? roundShare(capacity / totalCapacity) : 0,
    annual_payment_obligation_usd: roundUsd(sum((tally) => tally.annualPayment)),
    guaranteed_amount_usd: roundUsd(sum((tally) => tally.guaranteed)),
    ppas_with_disclosed_amounts: sum((tally) => tally.disclosed),
  };
}

/** One level of groups: presented, sorted, cut, with its meta. `extend` adds a pivot's inner groups to those shown. */
function level<G extends Group>(
  tallies: Map<Key, Tally>,
  dimension: DimensionName,
  query: GroupQuery,
  totalCapacity: number,
  extend: (group: Group, tally: Tally) => G,
): { groups: G[]; groups_meta: GroupsMeta } {
  const sorted = sortEntries(
    [...tallies.values()].map((tally) => ({ group: present(tally, totalCapacity, dimension), tally })),
    query.sort,
  );
  const shown = sorted.slice(0, query.limit);
  const hidden = sorted.slice(query.limit).map(({ tally }) => tally);
  return {
    groups: shown.map(({ group, tally }) => extend(group, tally)),
    groups_meta: {
      dimension,
      total_groups: sorted.length,
      other: otherOf(hidden, totalCapacity),
    },
  };
}

/** data.groups and data.groups_meta from the walks' buckets; `totalCapacity` the selection's, for the shares. */
export function presentGroups(
  query: GroupQuery,
  walks: ReadonlyMap<WalkName, readonly GroupBucket[]>,
  totalCapacity: number,
): GroupsPart {
  const [first, second] = query.dimensions as [DimensionName, DimensionName | undefined];
  const tallies = new Map<Key, Tally>();
  for (const bucket of walks.get(GROUPS_AGGREGATION) ?? []) {
    addBucket(tallies, bucket.key[sourceName(0)] ?? null, bucket, first);
  }
  if (second === undefined) return level(tallies, first, query, totalCapacity, (group) => group);
  // A pivot: the pairs, by the first dimension's merged key, then the second's.
  const inner = new Map<Key, Map<Key, Tally>>();
  for (const bucket of walks.get(PAIRS_AGGREGATION) ?? []) {
    const outerKey = mergeKeyOf(bucket.key[sourceName(0)] ?? null, first);
    if (!inner.has(outerKey)) inner.set(outerKey, new Map());
    addBucket(inner.get(outerKey)!, bucket.key[sourceName(1)] ?? null, bucket, second);
  }
  return level(tallies, first, query, totalCapacity, (group, tally): PivotGroup => ({
    ...group,
    ...level(
      inner.get(tally.mergeKey) ?? new Map(),
      second,
      query,
      totalCapacity,
      (innerGroup) => innerGroup,
    ),
  }));
}

/**
 * data.groups and data.groups_meta of a counterparty roll-up of the whole active set, from the groups the parties
 * hold (src/queries/partyGroups.ts): the first groups in order, the null group placed among them by its figures, and
 * `other` the sums of every group less those shown, rounded once (the same figures a grouping of the PPAs gives).
 */
export function presentPartyGroups(
  query: GroupQuery,
  parties: PartyGroups,
  nullGroup: NullGroupBucket,
  totalCapacity: number,
): GroupsPart {
  const dimension = query.dimensions[0]!;
  const tallies: Tally[] = parties.groups.map(({ group }) => ({
    mergeKey: group.group_key,
    spelling: group.key,
    spellingPpas: group.ppas,
    ppas: group.ppas,
    capacity: group.capacity_mw,
    annualPayment: group.annual_payment_obligation_usd,
    guaranteed: group.guaranteed_amount_usd,
    disclosed: group.ppas_with_disclosed_amounts,
  }));
  const withoutValue: Tally = {
    mergeKey: null,
    spellingPpas: 0,
    ppas: nullGroup.doc_count,
    capacity: nullGroup.capacity_mw.value ?? 0,
    annualPayment: nullGroup.annual_payment_obligation_usd.value ?? 0,
    guaranteed: nullGroup.guaranteed_amount_usd.value ?? 0,
    disclosed: nullGroup.with_disclosed_amounts.doc_count,
  };
  const hasNull = withoutValue.ppas > 0;
  if (hasNull) tallies.push(withoutValue);
  const shown = sortEntries(
    tallies.map((tally) => ({ group: present(tally, totalCapacity, dimension), tally })),
    query.sort,
  ).slice(0, query.limit);
  const { sums } = parties;
  const nulls = hasNull ? withoutValue : undefined;
  const rest = (all: number, of: (tally: Tally) => number) =>
    all + (nulls ? of(nulls) : 0) - shown.reduce((total, { tally }) => total + of(tally), 0);
  const capacity = rest(sums.capacity_mw, (tally) => tally.capacity);
  return {
    groups: shown.map(({ group }) => group),
    groups_meta: {
      dimension,
      total_groups: parties.total + (hasNull ? 1 : 0),
      other: {
        groups: parties.total + (hasNull ? 1 : 0) - shown.length,
        ppas: rest(sums.ppas, (tally) => tally.ppas),
        capacity_mw: roundMw(Math.max(0, capacity)),
        share_of_capacity: totalCapacity > 0 ? roundShare(Math.max(0, capacity) / totalCapacity) : 0,
        annual_payment_obligation_usd: roundUsd(
          Math.max(
            0,
            rest(sums.annual_payment_obligation_usd, (tally) => tally.annualPayment),
          ),
        ),
        guaranteed_amount_usd: roundUsd(
          Math.max(
            0,
            rest(sums.guaranteed_amount_usd, (tally) => tally.guaranteed),
          ),
        ),
        ppas_with_disclosed_amounts: rest(sums.ppas_with_disclosed_amounts, (tally) => tally.disclosed),
      },
    },
  };
}
