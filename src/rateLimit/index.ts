// What the app needs to wire the per-IP rate limit in.
export { clientKey } from './clientKey.js';
export { createRateLimiter, DEFAULT_KEY_PREFIX, type RateLimiterOptions } from './createRateLimiter.js';
export type { RateLimitLogger } from './limiterLog.js';
export { rateLimit, rateLimitHeaders, RATE_LIMIT_HEADER_NAMES } from './middleware.js';
export { applyProxyTrust } from './proxyTrust.js';
export type { ClientRateLimiter, LimiterHealth, RateLimitDecision } from './types.js';
