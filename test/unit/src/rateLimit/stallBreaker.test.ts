import { expect } from 'chai';
import { RedisStallBreaker } from '../../../../src/rateLimit/stallBreaker.js';

describe('rate limit: stalled-Redis breaker', () => {
  let nowMs: number;
  let breaker: RedisStallBreaker;
  beforeEach(() => {
    nowMs = 1_000_000;
    breaker = new RedisStallBreaker(1000, () => nowMs);
  });

  it('asks Redis every time while it answers', () => {
    expect([breaker.shouldAskRedis(), breaker.shouldAskRedis()]).to.deep.equal([true, true]);
  });

  it('after a timeout skips Redis, then lets one request per interval probe it', () => {
    breaker.redisTimedOut();
    nowMs += 999;
    expect(breaker.shouldAskRedis()).to.equal(false);
    nowMs += 1;
    expect(breaker.shouldAskRedis()).to.equal(true);
    // The probe is in flight: the others do not wait on it.
    expect(breaker.shouldAskRedis()).to.equal(false);
    nowMs += 200;
    breaker.redisTimedOut();
    nowMs += 999;
    expect(breaker.shouldAskRedis()).to.equal(false);
    nowMs += 1;
    expect(breaker.shouldAskRedis()).to.equal(true);
  });

  it('closes as soon as Redis answers a probe', () => {
    breaker.redisTimedOut();
    nowMs += 1000;
    expect(breaker.shouldAskRedis()).to.equal(true);
    breaker.redisAnswered();
    expect([breaker.shouldAskRedis(), breaker.shouldAskRedis()]).to.deep.equal([true, true]);
  });
});
