// The API as src/server.ts wires it (createApp, the in-memory limiter without REDIS_URL, the response cache, the
// log on stdout), but searching through a replaying gateway (bench/perf/replay.ts): for bench/floor.ts --replay.
// Started like the API (PORT, ES_URL, ES_INDEX, LOG_LEVEL, RESPONSE_CACHE_MB, RATE_LIMIT_*).
import { createServer } from 'node:http';
import { createApp } from '../../src/app.js';
import { createResponseCache } from '../../src/cache/responseCache.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createRateLimiter } from '../../src/rateLimit/index.js';
import { createSearchGateway } from '../../src/search/gateway.js';
import { createEsClient } from '../../settings/esClient.js';
import { replayingGateway } from './replay.js';

const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const search = replayingGateway(
  createSearchGateway({
    client: createEsClient(config.es, { maxRetries: 0 }),
    alias: config.es.alias,
    requestTimeoutMs: config.es.requestTimeoutMs,
  }),
);
const limiter = createRateLimiter({
  redisUrl: config.redisUrl,
  points: config.rateLimitPoints,
  windowSeconds: config.rateLimitWindowSeconds,
  logger,
});
const responseCache = createResponseCache({
  maxBytes: config.responseCacheBytes,
  liveIndex: () => search.liveIndex(),
});
const app = createApp({ config, search, limiter, logger, ...(responseCache ? { responseCache } : {}) });
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(config.port, config.host);
process.on('SIGTERM', () => {
  responseCache?.close();
  server.close(() => process.exit(0));
});
