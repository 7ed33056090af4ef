import type { Logger } from 'pino';

/** The part of a pino logger the rate limiter writes to (a child logger fits). */
export type RateLimitLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
