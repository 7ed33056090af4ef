// The API as src/server.ts wires it (createServices: the limiter in memory without REDIS_URL, the response cache,
// the log on stdout), but searching through a replaying gateway (bench/perf/replay.ts): for bench/floor.ts
// --replay. Started like the API (PORT, ES_URL, ES_INDEX, LOG_LEVEL, RESPONSE_CACHE_MB, RATE_LIMIT_*).
import { createServer } from 'node:http';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services.js';
import { replayingGateway } from './replay.js';

const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const services = createServices(config, logger);
const app = createApp({ config, logger, ...services, search: replayingGateway(services.search) });
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(config.port, config.host);
process.on('SIGTERM', () => {
  services.responseCache?.close();
  server.close(() => process.exit(0));
});
