import { expect } from 'chai';
import { indexNameFor, isDataIndexOf, parseIndexBuiltAt } from '../../../indexContract/indexName.js';

describe('indexer: index names', () => {
  const builtAt = new Date('2026-11-22T04:15:30.123Z');

  it('formats <alias>-yyyymmddthhmmssSSSz in UTC, lowercase', () => {
    expect(indexNameFor('ppas', builtAt)).to.equal('ppas-20261122t041530123z');
  });

  it('parses the build time back, for any alias (dashes included)', () => {
    expect(parseIndexBuiltAt('ppas-20261122t041530123z')?.toISOString()).to.equal('2026-11-22T04:15:30.123Z');
    expect(parseIndexBuiltAt('idx-a-b-20260101t000000000z')?.toISOString()).to.equal(
      '2026-01-01T00:00:00.000Z',
    );
  });

  it('returns null for names that are not timestamped or impossible dates', () => {
    expect(parseIndexBuiltAt('ppas')).to.equal(null);
    expect(parseIndexBuiltAt('ppas.indexer-lock')).to.equal(null);
    expect(parseIndexBuiltAt('ppas-20261340t000000000z')).to.equal(null);
    expect(parseIndexBuiltAt('ppas-20261122T041530123Z')).to.equal(null);
  });

  it('recognises only this alias’s data indices (never the lock index or a longer alias)', () => {
    expect(isDataIndexOf('ppas', 'ppas-20261122t041530123z')).to.equal(true);
    expect(isDataIndexOf('ppas', 'ppas.indexer-lock')).to.equal(false);
    expect(isDataIndexOf('ppas', 'ppas-old-20261122t041530123z')).to.equal(false);
    expect(isDataIndexOf('pp', 'ppas-20261122t041530123z')).to.equal(false);
  });
});
