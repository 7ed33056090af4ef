// The group fields the indexer writes: each dimension's values as spelled, one per group key.
import { expect } from 'chai';
import { groupFieldValues } from '../../../indexContract/groupFields.js';
import type { PpaRecord } from '../../../indexContract/record.js';

const record = (changes: Partial<PpaRecord>): PpaRecord =>
  ({ developer: 'Solo Power', offtaker: null, procurement: null, contract: null, ...changes }) as PpaRecord;

describe('indexContract/groupFields: what the roll-ups group by', () => {
  it('holds every member of a consortium and each counterparty as spelled, spaces collapsed', () => {
    expect(
      groupFieldValues(
        record({
          developer: 'Engie / Meridiam (40%)',
          offtaker: { name: '  Société  Nationale ', type: 'state_utility' },
          procurement: { method: 'competitive_tender', procuring_entity: 'Ministry of Energy' } as never,
          contract: { currency: 'EUR' } as never,
        }),
      ),
    ).to.deep.equal({
      group_developer: ['Engie', 'Meridiam'],
      group_offtaker: ['Société Nationale'],
      group_offtaker_type: ['state_utility'],
      group_procuring_entity: ['Ministry of Energy'],
      group_procurement_method: ['competitive_tender'],
      group_currency: ['EUR'],
    });
  });

  it('holds nothing where the record has no value, or a blank one', () => {
    expect(groupFieldValues(record({ offtaker: { name: '  ', type: null } }))).to.deep.equal({
      group_developer: ['Solo Power'],
      group_offtaker: [],
      group_offtaker_type: [],
      group_procuring_entity: [],
      group_procurement_method: [],
      group_currency: [],
    });
  });
});
