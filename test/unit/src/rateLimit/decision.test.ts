import { expect } from 'chai';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { failOpen, secondsUntilReset, toDecision } from '../../../../src/rateLimit/decision.js';
import { rateLimitHeaders } from '../../../../src/rateLimit/middleware.js';
import { capturingLogger } from '../../../support/rateLimitApp.js';

describe('rate limit: decisions and headers', () => {
  it('rounds the time to reset up to whole seconds, at least 1 and at most the window', () => {
    expect(secondsUntilReset(59_001, 60)).to.equal(60);
    expect(secondsUntilReset(59_000, 60)).to.equal(59);
    expect(secondsUntilReset(1, 60)).to.equal(1);
    expect(secondsUntilReset(0, 60)).to.equal(1);
    expect(secondsUntilReset(60_000, 60)).to.equal(60);
    expect(secondsUntilReset(-1, 60)).to.equal(60);
  });

  it('maps an allowed result and a refusal', () => {
    expect(toDecision(new RateLimiterRes(41, 12_300, 19), true, 60, 60)).to.deep.equal({
      allowed: true,
      limit: 60,
      remaining: 41,
      resetSeconds: 13,
    });
    expect(toDecision(new RateLimiterRes(0, 500, 61), false, 60, 60)).to.deep.equal({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetSeconds: 1,
    });
  });

  it('renders both header generations; X-RateLimit-Reset is epoch seconds, never before the reset', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0, 400);
    const headers = rateLimitHeaders({ allowed: true, limit: 60, remaining: 7, resetSeconds: 13 }, 60, now);
    expect(headers).to.deep.equal({
      'RateLimit-Policy': '"per-ip";q=60;w=60',
      RateLimit: '"per-ip";r=7;t=13',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 13),
    });
    expect(Number(headers['X-RateLimit-Reset']) * 1000).to.be.at.least(now + 13_000);
  });

  it('lets a request through, and logs an error, when no limiter could count it', () => {
    const { logger, lines } = capturingLogger();
    expect(failOpen(new Error('bug'), 60, 60, logger)).to.deep.equal({
      allowed: true,
      limit: 60,
      remaining: 60,
      resetSeconds: 60,
    });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 50 });
  });
});
