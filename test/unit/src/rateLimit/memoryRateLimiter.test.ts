// Limits in memory: a quota per key and window, told as decisions.
import { expect } from 'chai';
import { pino } from 'pino';
import { createMemoryRateLimiter } from '../../../../src/rateLimit/memoryRateLimiter.js';

describe('rateLimit/memoryRateLimiter', () => {
  it('allows the quota per key, then refuses until the window resets; keys count apart', async () => {
    const limiter = createMemoryRateLimiter({
      points: 2,
      windowSeconds: 60,
      keyPrefix: 't',
      logger: pino({ level: 'silent' }),
    });
    const first = await limiter.consume('a');
    expect(first).to.deep.include({ allowed: true, remaining: 1, limit: 2 });
    expect((await limiter.consume('a')).allowed).to.equal(true);
    const refused = await limiter.consume('a');
    expect(refused).to.deep.include({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).to.be.within(1, limiter.windowSeconds);
    expect((await limiter.consume('b')).allowed).to.equal(true);
    expect(limiter.health()).to.deep.equal({ status: 'ok', store: 'memory' });
    await limiter.close();
  });
});
