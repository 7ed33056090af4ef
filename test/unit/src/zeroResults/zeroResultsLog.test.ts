// The log without Redis: it counts in this process, and only what found nothing, from clients that did not opt out.
import { expect } from 'chai';
import { clientHash, createZeroResultsLog } from '../../../../src/zeroResults/zeroResultsLog.js';

describe('zeroResults/zeroResultsLog: counting in memory', () => {
  it('says it counts in memory without REDIS_URL', () => {
    const log = createZeroResultsLog({ retentionDays: 30 });
    expect(log.store()).to.deep.equal({
      store: 'memory',
      detail: 'REDIS_URL is not set: this instance counts its own',
      shared: false,
    });
  });

  it('hashes a client by the day’s secret: the same within a day, another under another secret', () => {
    expect(clientHash('s1', '203.0.113.1')).to.equal(clientHash('s1', '203.0.113.1'));
    expect(clientHash('s1', '203.0.113.1')).to.not.equal(clientHash('s2', '203.0.113.1'));
    expect(clientHash('s1', '203.0.113.1')).to.match(/^[A-Za-z0-9_-]{12}$/);
  });

  it('falls back to memory when Redis does not answer, and says so', async () => {
    let told = 0;
    const log = createZeroResultsLog({
      redisUrl: 'redis://127.0.0.1:1',
      retentionDays: 30,
      commandTimeoutMs: 100,
      onFailure: () => told++,
    });
    log.note({ q: 'nothing here', found: false, clientKey: '203.0.113.1', optedOut: false });
    log.note({ q: 'nothing here', found: false, clientKey: '203.0.113.2', optedOut: false });
    await log.flush();
    expect(log.store()).to.deep.include({ store: 'memory', shared: true });
    expect(told, 'told once an outage').to.equal(1);
    await log.close();
  });
});
