// data.groups from the walks' buckets: spellings merged, figures rounded, order, cut, other, pivots.
import { expect } from 'chai';
import type { GroupQuery } from '../../../../src/params/groupBy.js';
import { presentGroups, type PivotGroup } from '../../../../src/present/groups.js';
import {
  GROUPS_AGGREGATION,
  PAIRS_AGGREGATION,
  type GroupBucket,
  type WalkName,
} from '../../../../src/queries/groupAggregations.js';

function bucket(
  key: Record<string, string | number | null>,
  ppas: number,
  capacity: number,
  usd = 0,
): GroupBucket {
  return {
    key,
    doc_count: ppas,
    capacity_mw: { value: capacity },
    annual_payment_obligation_usd: { value: usd },
    guaranteed_amount_usd: { value: usd / 2 },
    with_disclosed_amounts: { doc_count: usd > 0 ? ppas : 0 },
  };
}
const walks = (groups: GroupBucket[], pairs?: GroupBucket[]) =>
  new Map<WalkName, GroupBucket[]>([
    [GROUPS_AGGREGATION, groups],
    ...(pairs ? [[PAIRS_AGGREGATION, pairs] as const] : []),
  ]);
const query = (changes: Partial<GroupQuery>): GroupQuery => ({
  dimensions: ['offtaker'],
  sort: 'capacity_desc',
  limit: 20,
  ...changes,
});

describe('present/groups: a roll-up as data.groups', () => {
  it('merges the spellings of a name by group key and shows the most common; null is a group of its own', () => {
    const part = presentGroups(
      query({}),
      walks([
        bucket({ d0: 'SENELEC' }, 1, 10.04, 100.4),
        bucket({ d0: 'Senelec' }, 2, 20.02, 200.2),
        bucket({ d0: 'Sénélec' }, 1, 5),
        bucket({ d0: null }, 3, 1),
      ]),
      100,
    );
    expect(part.groups).to.deep.equal([
      {
        key: 'Senelec',
        party_id: 'senelec',
        ppas: 4,
        capacity_mw: 35.1,
        share_of_capacity: 0.3506,
        annual_payment_obligation_usd: 301,
        guaranteed_amount_usd: 150,
        ppas_with_disclosed_amounts: 3,
      },
      {
        key: null,
        party_id: null,
        ppas: 3,
        capacity_mw: 1,
        share_of_capacity: 0.01,
        annual_payment_obligation_usd: 0,
        guaranteed_amount_usd: 0,
        ppas_with_disclosed_amounts: 0,
      },
    ]);
    expect(part.groups_meta).to.deep.include({ dimension: 'offtaker', total_groups: 2 });
  });

  it('does not merge values of a dimension that is not names; years stay numbers', () => {
    const part = presentGroups(
      query({ dimensions: ['year'], sort: 'key_asc' }),
      walks([bucket({ d0: 2012 }, 1, 1), bucket({ d0: null }, 1, 9), bucket({ d0: 2003 }, 1, 1)]),
      11,
    );
    expect(part.groups.map((group) => group.key)).to.deep.equal([2003, 2012, null]);
  });

  it('orders by each sort, ties by key; cuts at the limit and sums the PPAs of the rest exactly in other', () => {
    const buckets = [
      bucket({ d0: 'b' }, 1, 0.04, 10),
      bucket({ d0: 'a' }, 2, 0.04, 10),
      bucket({ d0: 'c' }, 3, 0.06, 30),
      bucket({ d0: 'd' }, 1, 0.05, 0),
    ];
    const keys = (sort: GroupQuery['sort']) =>
      presentGroups(query({ sort }), walks(buckets), 1).groups.map((group) => group.key);
    expect(keys('capacity_desc')).to.deep.equal(['c', 'd', 'a', 'b']);
    expect(keys('ppas_desc')).to.deep.equal(['c', 'a', 'b', 'd']);
    expect(keys('annual_payment_desc')).to.deep.equal(['c', 'a', 'b', 'd']);
    expect(keys('key_asc')).to.deep.equal(['a', 'b', 'c', 'd']);
    const cut = presentGroups(query({ limit: 1 }), walks(buckets), 1);
    expect(cut.groups.map((group) => group.key)).to.deep.equal(['c']);
    // Exact: the sum over the PPAs (0.05 + 0.04 + 0.04 = 0.13) rounded once, not the groups as shown (0.1 + 0 + 0).
    const exact = presentGroups(
      query({ limit: 1 }),
      walks([...buckets, bucket({ d0: 'e' }, 1, 0.04, 0.4)]),
      1,
    );
    expect(exact.groups_meta.other.capacity_mw).to.equal(0.2);
    expect(exact.groups_meta.other.annual_payment_obligation_usd).to.equal(20);
    expect(cut.groups_meta.other).to.deep.equal({
      groups: 3,
      ppas: 4,
      capacity_mw: 0.1,
      share_of_capacity: 0.13,
      annual_payment_obligation_usd: 20,
      guaranteed_amount_usd: 10,
      ppas_with_disclosed_amounts: 3,
    });
  });

  it('a pivot: each group of the first dimension carries the second dimension’s groups within it', () => {
    const part = presentGroups(
      query({ dimensions: ['country', 'developer'], limit: 1 }),
      walks(
        [bucket({ d0: 'GH' }, 2, 30), bucket({ d0: 'SN' }, 1, 10)],
        [
          bucket({ d0: 'GH', d1: 'ENGIE' }, 1, 20),
          bucket({ d0: 'GH', d1: 'Engie' }, 1, 5),
          bucket({ d0: 'GH', d1: 'Meridiam' }, 1, 10),
          bucket({ d0: 'SN', d1: 'Engie' }, 1, 10),
        ],
      ),
      40,
    );
    const [ghana] = part.groups as PivotGroup[];
    expect(part.groups).to.have.length(1);
    expect(ghana?.key).to.equal('GH');
    expect(ghana?.groups.map((group) => [group.key, group.ppas, group.capacity_mw])).to.deep.equal([
      ['ENGIE', 2, 25],
    ]);
    expect(ghana?.groups_meta).to.deep.include({ dimension: 'developer', total_groups: 2 });
    expect(ghana?.groups_meta.other.capacity_mw).to.equal(10);
  });
});
