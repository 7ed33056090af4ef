// The middleware over the in-memory limiter, through real HTTP on 127.0.0.1 (no external services).
import { expect } from 'chai';
import { pino } from 'pino';
import { createRateLimiter } from '../../../../src/rateLimit/index.js';

const silent = pino({ level: 'silent' });

describe('rate limit: createRateLimiter without Redis', () => {
  it('limits in memory and reports healthy memory store', async () => {
    const limiter = createRateLimiter({ points: 2, windowSeconds: 10, logger: silent });
    expect(limiter.health()).to.deep.equal({ status: 'ok', store: 'memory' });
    expect(limiter).to.include({ points: 2, windowSeconds: 10 });
    const decisions = [await limiter.consume('a'), await limiter.consume('a'), await limiter.consume('a')];
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).to.deep.equal([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[2]?.resetSeconds).to.be.within(1, limiter.windowSeconds);
    expect((await limiter.consume('b')).allowed).to.equal(true);
    await limiter.close();
  });

  it('refuses a quota that is not a positive whole number', () => {
    expect(() => createRateLimiter({ points: 0, windowSeconds: 60, logger: silent })).to.throw(RangeError);
    expect(() => createRateLimiter({ points: 60, windowSeconds: 0.5, logger: silent })).to.throw(RangeError);
  });
});
