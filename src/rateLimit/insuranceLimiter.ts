// The in-memory limiter rate-limiter-flexible answers from when Redis fails, marked so we can tell.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * RateLimiterRedis hands a store error to its insuranceLimiter and resolves (or rejects) with the
 * insurance result as if nothing happened. Remembering which results came from here tells each
 * consume() call whether Redis answered it.
 */
export class InsuranceMemoryLimiter extends RateLimiterMemory {
  readonly #results = new WeakSet<RateLimiterRes>();

  answered(result: RateLimiterRes): boolean {
    return this.#results.has(result);
  }

  override async consume(
    key: string | number,
    pointsToConsume?: number,
    options?: { [key: string]: unknown },
  ): Promise<RateLimiterRes> {
    try {
      const result = await super.consume(key, pointsToConsume, options);
      this.#results.add(result);
      return result;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) this.#results.add(rejection);
      throw rejection;
    }
  }
}
