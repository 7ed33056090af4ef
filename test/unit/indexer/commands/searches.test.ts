// ppa-indexer searches: its --since and the report as the terminal and --json show it.
import { expect } from 'chai';
import { InvalidArgumentError } from 'commander';
import { sinceDays } from '../../../../indexer/commands/searches.js';
import {
  describeZeroResults,
  zeroResultsJson,
  type ZeroResultsReport,
} from '../../../../indexer/searchLog/zeroResultsReport.js';

const report: ZeroResultsReport = {
  from: '2026-11-30',
  to: '2026-12-06',
  minClients: 3,
  queries: [
    {
      query: 'kafeu gorje',
      clients: 20,
      clientsAtLeast: true,
      searches: 41,
      days: 2,
      lastDay: '2026-12-06',
      findsNow: false,
    },
    {
      query: 'sao jao',
      clients: 3,
      clientsAtLeast: false,
      searches: 3,
      days: 1,
      lastDay: '2026-12-01',
      findsNow: null,
    },
  ],
};

describe('indexer/commands/searches', () => {
  it('reads --since as days with d, within the retention’s bound', () => {
    expect(sinceDays('7d')).to.equal(7);
    expect(sinceDays('1d')).to.equal(1);
    for (const bad of ['7', '0d', '7x', '-1d', '367d', ' 7d'])
      expect(() => sinceDays(bad), bad).to.throw(InvalidArgumentError);
  });

  it('prints a row a query: searches, clients (+ when at the kept bound), days, whether it finds something now', () => {
    const text = describeZeroResults(report);
    expect(text).to.include(
      '2026-11-30 to 2026-12-06 (UTC), each shown once 3 different clients sent it on one day',
    );
    expect(text.split('\n').slice(2)).to.deep.equal([
      '        41      20+     2  no         kafeu gorje',
      '         3        3     1  unknown    sao jao',
    ]);
    expect(describeZeroResults({ ...report, queries: [] }).split('\n')[1]).to.equal('  none');
  });

  it('gives the same rows as JSON, snake_case', () => {
    expect(zeroResultsJson(report)).to.deep.include({ from: '2026-11-30', min_clients: 3 });
    expect((zeroResultsJson(report) as { queries: unknown[] }).queries[0]).to.deep.equal({
      query: 'kafeu gorje',
      searches: 41,
      clients: 20,
      clients_at_least: true,
      days: 2,
      last_day: '2026-12-06',
      finds_now: false,
    });
  });
});
