// Simulated clients for rate-limit tests: the socket is always 127.0.0.1, so with one trusted proxy hop
// the X-Forwarded-For header stands in for the client address.
import type { ClientRateLimiter, LimiterHealth } from '../../src/rateLimit/index.js';
import { COUNTED_PATH } from './rateLimitApp.js';

export interface TimedAnswer {
  status: number;
  headers: Headers;
  elapsedMs: number;
}

export async function requestAs(
  baseUrl: string,
  clientIp: string,
  path = COUNTED_PATH,
): Promise<TimedAnswer> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'X-Forwarded-For': clientIp } });
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers, elapsedMs: performance.now() - started };
}

export async function waitForHealth(
  limiter: ClientRateLimiter,
  status: LimiterHealth['status'],
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (limiter.health().status !== status) {
    if (Date.now() > deadline) {
      throw new Error(`limiter health stayed ${JSON.stringify(limiter.health())}, expected ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
