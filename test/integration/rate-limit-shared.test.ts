// Several app instances sharing one real Redis: one quota per client across all of them.
import { expect } from 'chai';
import { SHARED_MACHINE_SLACK_MS } from '../support/timing.js';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { buildRateLimitedApp, COUNTED_PATH, listen, type RunningApp } from '../support/rateLimitApp.js';
import { requestAs, waitForHealth } from '../support/rateLimitClients.js';
import { REDIS_URL, uniqueName } from '../support/services.js';

const silent = pino({ level: 'silent' });

interface Instance {
  limiter: ClientRateLimiter;
  app: RunningApp;
}

describe('rate limit: instances sharing Redis', function () {
  this.timeout(30_000);
  const keyPrefixes: string[] = [];
  const instances: Instance[] = [];

  /** `count` app instances, each with its own Redis client, sharing one key prefix (as deployed). */
  async function startInstances(
    count: number,
    points: number,
    windowSeconds: number,
    trustProxyHops = 1,
  ): Promise<Instance[]> {
    const keyPrefix = uniqueName('rate-limit-test');
    keyPrefixes.push(keyPrefix);
    const started: Instance[] = [];
    for (let i = 0; i < count; i += 1) {
      const limiter = createRateLimiter({
        redisUrl: REDIS_URL,
        points,
        windowSeconds,
        keyPrefix,
        logger: silent,
        // These tests are about sharing: a slow answer of a busy Redis on a loaded machine is not an outage here,
        // and must not send a request to the in-memory count.
        commandTimeoutMs: SHARED_MACHINE_SLACK_MS,
      });
      const instance = { limiter, app: await listen(buildRateLimitedApp(limiter, trustProxyHops)) };
      instances.push(instance);
      started.push(instance);
    }
    // Until a client is connected its requests are counted in memory, which is not what these tests measure.
    await Promise.all(started.map((instance) => waitForHealth(instance.limiter, 'ok')));
    return started;
  }

  afterEach(async () => {
    for (const { app, limiter } of instances.splice(0)) {
      await app.close();
      await limiter.close();
    }
  });

  after(async () => {
    // The keys expire with their window anyway; deleting them keeps the shared Redis tidy.
    const redis = new Redis(REDIS_URL);
    for (const prefix of keyPrefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
    redis.disconnect();
  });

  it('lets exactly 60 of 100 concurrent requests from one IP through across two instances', async () => {
    const [a, b] = await startInstances(2, 60, 60);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => requestAs((i % 2 === 0 ? a : b)!.app.baseUrl, '203.0.113.10')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(60);
    expect(statuses.filter((status) => status === 429)).to.have.length(40);
    // Both instances refused some: the count really is shared, not 60 per instance.
    expect(answers.filter((answer, i) => i % 2 === 0 && answer.status === 200).length).to.be.below(60);
    for (const answer of answers.filter((each) => each.status === 429)) {
      expect(answer.headers.get('X-RateLimit-Remaining')).to.equal('0');
      expect(Number(answer.headers.get('Retry-After'))).to.be.within(1, 60);
    }

    const otherIp = await requestAs(b!.app.baseUrl, '203.0.113.11');
    expect(otherIp.status).to.equal(200);
    expect(otherIp.headers.get('X-RateLimit-Remaining')).to.equal('59');
  });

  it('counts down by one per request, agreeing across instances', async () => {
    const [a, b, c] = await startInstances(3, 60, 60);
    const remaining: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      const answer = await requestAs([a, b, c][i % 3]!.app.baseUrl, '203.0.113.20');
      expect(answer.status).to.equal(200);
      remaining.push(Number(answer.headers.get('X-RateLimit-Remaining')));
      expect(answer.headers.get('RateLimit')).to.match(new RegExp(`^"per-ip";r=${59 - i};t=\\d+$`));
      expect(answer.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=60;w=60');
    }
    expect(remaining).to.deep.equal([59, 58, 57, 56, 55, 54, 53, 52, 51]);
  });

  it('refuses with problem+json and every header, then lets the client in again after the window', async () => {
    const [a, b] = await startInstances(2, 3, 2);
    for (let i = 0; i < 3; i += 1) {
      expect((await requestAs([a, b][i % 2]!.app.baseUrl, '203.0.113.30')).status).to.equal(200);
    }
    const response = await fetch(`${b!.app.baseUrl}${COUNTED_PATH}`, {
      headers: { 'X-Forwarded-For': '203.0.113.30' },
    });
    expect(response.status).to.equal(429);
    expect(response.headers.get('Content-Type')).to.match(/^application\/problem\+json/);
    expect(await response.json()).to.include({ status: 429, title: 'Too Many Requests' });
    const retryAfter = Number(response.headers.get('Retry-After'));
    expect(retryAfter).to.be.within(1, 2);
    expect(response.headers.get('RateLimit')).to.equal(`"per-ip";r=0;t=${retryAfter}`);
    expect(response.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=3;w=2');
    expect(response.headers.get('X-RateLimit-Limit')).to.equal('3');
    expect(response.headers.get('X-RateLimit-Remaining')).to.equal('0');
    expect(Number(response.headers.get('X-RateLimit-Reset'))).to.be.above(Date.now() / 1000);

    // Retry-After is rounded up, so waiting exactly that long is enough on any instance.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const again = await requestAs(a!.app.baseUrl, '203.0.113.30');
    expect(again.status).to.equal(200);
    expect(again.headers.get('X-RateLimit-Remaining')).to.equal('2');
  });

  it('with no proxy hops ignores X-Forwarded-For: a client rotating it is still limited', async () => {
    const [a, b] = await startInstances(2, 3, 60, 0);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await requestAs([a, b][i % 2]!.app.baseUrl, `192.0.2.${i + 1}`)).status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);
  });

  it('with one proxy hop, keys on the right-most X-Forwarded-For entry; a forged left part changes nothing', async () => {
    const [a, b] = await startInstances(2, 3, 60);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const forwardedFor = `10.${i}.0.1, 192.0.2.${i + 1}, 203.0.113.40`;
      statuses.push((await requestAs([a, b][i % 2]!.app.baseUrl, forwardedFor)).status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);
  });

  it('gives two IPv6 addresses in one /64 one quota, and IPv4 one quota with its IPv4-mapped form', async () => {
    const [a, b] = await startInstances(2, 2, 60);
    const ipv6 = [
      await requestAs(a!.app.baseUrl, '2001:db8:1:2::1'),
      await requestAs(b!.app.baseUrl, '2001:0db8:0001:0002:ffff:0:0:9'),
      await requestAs(a!.app.baseUrl, '2001:db8:1:2:abcd::7'),
    ];
    expect(ipv6.map((answer) => answer.status)).to.deep.equal([200, 200, 429]);
    expect((await requestAs(b!.app.baseUrl, '2001:db8:1:3::1')).status).to.equal(200);

    const ipv4 = [
      await requestAs(a!.app.baseUrl, '198.51.100.50'),
      await requestAs(b!.app.baseUrl, '::ffff:198.51.100.50'),
      await requestAs(a!.app.baseUrl, '::ffff:c633:6432'),
    ];
    expect(ipv4.map((answer) => answer.status)).to.deep.equal([200, 200, 429]);
  });

  it('reports a healthy Redis store', async () => {
    const [a] = await startInstances(1, 60, 60);
    expect(a!.limiter.health()).to.deep.equal({ status: 'ok', store: 'redis' });
  });
});
