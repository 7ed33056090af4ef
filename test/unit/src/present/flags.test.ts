// GET /api/v1/flags's body: the indicators from their declarations, the fences as the served index stored them.
import { expect } from 'chai';
import { FLAG_CODES } from '../../../../indexContract/flags.js';
import { presentFlagMethodology } from '../../../../src/present/flags.js';

describe('api present: the red flags’ methodology', () => {
  it('lists every indicator in the table’s order with its texts, and the stored fences', () => {
    const body = presentFlagMethodology({
      methodology_version: 1,
      computed_at: '2026-12-07T20:00:00.000Z',
      groups: [
        { technology: 'hydro', currency: 'EUR', count: 3, q1: null, q3: null, fence: null },
        { technology: 'wind', currency: 'USD', count: 10, q1: 0.25, q3: 0.5, fence: 0.875 },
      ],
    });
    expect(body.data.methodology_version).to.equal(1);
    expect(body.data.computed_at).to.equal('2026-12-07T20:00:00Z');
    expect(body.data.min_peers).to.equal(10);
    expect(body.data.indicators.map((indicator) => indicator.code)).to.deep.equal(FLAG_CODES);
    expect(Object.keys(body.data.indicators[0]!)).to.deep.equal([
      'code',
      'title',
      'description',
      'raised_when',
      'decidable_when',
      'reference',
    ]);
    expect(body.data.peer_groups).to.deep.equal([
      { technology: 'hydro', currency: 'EUR', count: 3, q1: null, q3: null, fence: null },
      { technology: 'wind', currency: 'USD', count: 10, q1: 0.25, q3: 0.5, fence: 0.875 },
    ]);
  });

  it('says when the served index has no fences: computed_at null, no peer groups', () => {
    const body = presentFlagMethodology(null);
    expect(body.data.computed_at).to.equal(null);
    expect(body.data.peer_groups).to.deep.equal([]);
    expect(body.data.indicators).to.have.length(9);
  });
});
