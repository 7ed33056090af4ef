// A roll-up as CSV: the groups shown, or the pairs of a pivot, with the export's cell rules.
import { expect } from 'chai';
import { groupsCsv } from '../../../../src/present/groupsCsv.js';
import type { Group, GroupsPart, PivotGroup } from '../../../../src/present/groups.js';

const group = (key: Group['key'], ppas: number): Group => ({
  key,
  ppas,
  capacity_mw: 1.5,
  share_of_capacity: 0.25,
  annual_payment_obligation_usd: 100,
  guaranteed_amount_usd: 0,
  ppas_with_disclosed_amounts: 1,
});
const meta = { dimension: 'developer' as const, total_groups: 2, other: { ...group(null, 0), groups: 0 } };

describe('present/groupsCsv: the groups as CSV', () => {
  it('one row a group: the dimension, then the figures; null empty, a formula start quoted', () => {
    const part: GroupsPart = { groups: [group('=HYPERLINK("x")', 2), group(null, 1)], groups_meta: meta };
    expect(groupsCsv(['developer'], part)).to.equal(
      'developer,ppas,capacity_mw,share_of_capacity,annual_payment_obligation_usd,guaranteed_amount_usd,ppas_with_disclosed_amounts\r\n' +
        `"'=HYPERLINK(""x"")",2,1.5,0.25,100,0,1\r\n` +
        ',1,1.5,0.25,100,0,1\r\n',
    );
  });

  it('a pivot: one row a pair shown, the first dimension’s key first', () => {
    const outer: PivotGroup = {
      ...group('GH', 3),
      groups: [group('Engie', 2), group(2012, 1)],
      groups_meta: meta,
    };
    const lines = groupsCsv(['country', 'developer'], { groups: [outer], groups_meta: meta }).split('\r\n');
    expect(lines[0]?.startsWith('country,developer,ppas,')).to.equal(true);
    expect(lines.slice(1, 3)).to.deep.equal(['GH,Engie,2,1.5,0.25,100,0,1', 'GH,2012,1,1.5,0.25,100,0,1']);
  });
});
