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

  it('in a Cluster, is degraded while one master fails and ok again once it answers, whoever else answers', () => {
    const { logger, lines } = capturingLogger();
    const health = new RedisStoreHealth(logger);
    health.redisAnswered(health.ticket());

    health.redisFailed(health.ticket(), 'Redis 10.0.0.2:7000 is unreachable', '10.0.0.2:7000');
    // The other masters answering does not hide the failing one.
    health.redisAnswered(health.ticket(), '10.0.0.1:7000');
    health.redisAnswered(health.ticket());
    health.redisFailed(health.ticket(), 'Redis 10.0.0.2:7000 is unreachable', '10.0.0.2:7000');
    expect(health.current()).to.deep.equal({
      status: 'degraded',
      store: 'redis',
      detail: 'Redis 10.0.0.2:7000 is unreachable',
    });
    // Once a failover moved its slots away, a dead master no longer counts.
    expect(health.current((server) => server !== '10.0.0.2:7000')).to.deep.equal({
      status: 'ok',
      store: 'redis',
    });

    const stale = health.ticket();
    health.redisAnswered(health.ticket(), '10.0.0.2:7000');
    health.redisFailed(stale, 'Redis 10.0.0.2:7000 is unreachable', '10.0.0.2:7000');
    expect(health.current()).to.deep.equal({ status: 'ok', store: 'redis' });
    expect(lines.map((line) => [line.msg, line.redisServer])).to.deep.equal([
      ['rate limit: Redis ready; limits are shared by every instance', undefined],
      ['rate limit: Redis unavailable; falling back to in-memory limits for this instance', '10.0.0.2:7000'],
      ['rate limit: Redis answers again; shared limits apply', '10.0.0.2:7000'],
    ]);
  });
});
