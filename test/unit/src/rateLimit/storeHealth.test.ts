import { expect } from 'chai';
import { RedisStoreHealth } from '../../../../src/rateLimit/storeHealth.js';
import { capturingLogger } from '../../../support/rateLimitApp.js';

describe('rate limit: Redis store health', () => {
  it('is degraded while connecting, ok once Redis answers, logging one line per change', () => {
    const { logger, lines } = capturingLogger();
    const health = new RedisStoreHealth(logger);
    expect(health.current()).to.include({ status: 'degraded', store: 'redis' });

    health.redisAnswered(health.ticket());
    health.redisAnswered(health.ticket());
    expect(health.current()).to.deep.equal({ status: 'ok', store: 'redis' });

    health.redisFailed(health.ticket(), 'Redis did not answer within 200 ms');
    health.redisFailed(health.ticket(), 'Redis did not answer within 200 ms');
    expect(health.current()).to.deep.equal({
      status: 'degraded',
      store: 'redis',
      detail: 'Redis did not answer within 200 ms',
    });

    health.redisAnswered(health.ticket());
    expect(health.current().status).to.equal('ok');
    expect(lines.map((line) => line.msg)).to.deep.equal([
      'rate limit: Redis ready; limits are shared by every instance',
      'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
      'rate limit: Redis answers again; shared limits apply',
    ]);
    expect(lines[1]).to.include({ level: 40, reason: 'Redis did not answer within 200 ms' });
  });

  it('ignores an older call that settles after a newer observation', () => {
    const { logger } = capturingLogger();
    const health = new RedisStoreHealth(logger);
    const startedDuringOutage = health.ticket();
    const startedAfterRecovery = health.ticket();
    health.redisAnswered(startedAfterRecovery);
    health.redisFailed(startedDuringOutage, 'Redis did not answer within 200 ms');
    expect(health.current().status).to.equal('ok');
  });
});
