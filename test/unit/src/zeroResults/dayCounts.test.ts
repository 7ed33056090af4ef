// A day's counts in memory: the same bounds as the shared count's script.
import { expect } from 'chai';
import { MAX_CLIENTS_KEPT, MAX_QUERIES_PER_DAY } from '../../../../settings/zeroResults.js';
import { countSearch, emptyDay } from '../../../../src/zeroResults/dayCounts.js';

describe('zeroResults/dayCounts: one day in memory', () => {
  it('counts searches and different clients, at most MAX_CLIENTS_KEPT of them', () => {
    const counts = emptyDay();
    for (let i = 0; i < MAX_CLIENTS_KEPT + 5; i++)
      countSearch(counts, 'q', `client${i % (MAX_CLIENTS_KEPT + 2)}`);
    countSearch(counts, 'q', 'client0');
    expect(counts.searches.get('q')).to.equal(MAX_CLIENTS_KEPT + 6);
    expect(counts.clients.get('q')).to.have.length(MAX_CLIENTS_KEPT);
  });

  it('on a full day, a new query takes the place of one searched once, else it is not kept', () => {
    const counts = emptyDay();
    for (let i = 0; i < MAX_QUERIES_PER_DAY; i++) countSearch(counts, `q${String(i).padStart(4, '0')}`, 'c');
    countSearch(counts, 'q0000', 'c');
    expect(countSearch(counts, 'new', 'c')).to.equal(true);
    expect(counts.searches.has('q0001')).to.equal(false);
    expect(counts.searches.get('q0000')).to.equal(2);
    for (const query of [...counts.searches.keys()]) countSearch(counts, query, 'd');
    expect(countSearch(counts, 'late', 'c')).to.equal(false);
    expect(counts.searches.size).to.equal(MAX_QUERIES_PER_DAY);
    expect(counts.clients.has('q0001')).to.equal(false);
  });
});
