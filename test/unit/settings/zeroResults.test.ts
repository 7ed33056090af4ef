// The log of searches that found nothing, as both programs read it: folded queries, a day's keys, the privacy rule.
import { expect } from 'chai';
import calculateSlot from 'cluster-key-slot';
import {
  dayKeys,
  daySaltKey,
  expiresAt,
  foldedQuery,
  lastDays,
  MAX_CLIENTS_KEPT,
  reportZeroResults,
  type DayCounts,
} from '../../../settings/zeroResults.js';

const day = (searches: Record<string, number>, clients: Record<string, string[]>): DayCounts => ({
  searches: new Map(Object.entries(searches)),
  clients: new Map(Object.entries(clients)),
});

describe('settings/zeroResults: the shared log of searches that found nothing', () => {
  it('folds a query: case, accents, ligatures and runs of spaces aside', () => {
    expect(foldedQuery('  KAFÉU   Gorje ')).to.equal('kafeu gorje');
    expect(foldedQuery('Œuvre')).to.equal('oeuvre');
  });

  it('keeps a day’s two keys in one Cluster slot, its secret elsewhere and shorter-lived', () => {
    const keys = dayKeys('2026-12-06');
    expect(calculateSlot(keys.queries)).to.equal(calculateSlot(keys.clients));
    const salt = daySaltKey('2026-12-06');
    expect(salt.key).to.not.include('{');
    expect(salt.expiresAt).to.equal(Date.parse('2026-12-07T01:00:00Z') / 1000);
    expect(expiresAt('2026-12-06', 30)).to.equal(Date.parse('2027-01-06T00:00:00Z') / 1000);
  });

  it('names the last days, newest first', () => {
    expect(lastDays(new Date('2026-12-06T10:00:00Z'), 3)).to.deep.equal([
      '2026-12-06',
      '2026-12-05',
      '2026-12-04',
    ]);
  });

  it('reports a query only on the days three clients sent it, summed over those days, most searched first', () => {
    const days = new Map([
      [
        '2026-12-06',
        day(
          { often: 9, pair: 5, trio: 3 },
          { often: ['a', 'b', 'c', 'd'], pair: ['a', 'b'], trio: ['x', 'y', 'z'] },
        ),
      ],
      ['2026-12-05', day({ often: 4, trio: 2 }, { often: ['e', 'f', 'g'], trio: ['x', 'y'] })],
    ]);
    expect(reportZeroResults(days, 10)).to.deep.equal([
      { query: 'often', clients: 7, clientsAtLeast: false, searches: 13, days: 2, lastDay: '2026-12-06' },
      { query: 'trio', clients: 3, clientsAtLeast: false, searches: 3, days: 1, lastDay: '2026-12-06' },
    ]);
    expect(reportZeroResults(days, 1).map((row) => row.query)).to.deep.equal(['often']);
  });

  it('says when a day kept as many clients as it keeps: the count is then a lower bound', () => {
    const many = Array.from({ length: MAX_CLIENTS_KEPT }, (_, i) => `c${i}`);
    const [row] = reportZeroResults(new Map([['2026-12-06', day({ popular: 50 }, { popular: many })]]), 5);
    expect(row).to.deep.include({ clients: MAX_CLIENTS_KEPT, clientsAtLeast: true });
  });
});
