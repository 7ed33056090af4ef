#!/usr/bin/env node
// `npm start`: the quick start. Finds (or starts) Elasticsearch, indexes the sample data when the alias is
// missing, then runs the API and prints where to try it. Signals go to the API, whose exit code this returns.
//
//   ES_URL unset      → use the Elasticsearch answering on 127.0.0.1:$ES_PORT (default 9200), else start one there
//                       with `scripts/elasticsearch.sh start`
//   alias (ES_INDEX)  → missing: `node bin/ppa-indexer.js reindex --source data/sample-ppas.ndjson`, or from
//                       PostgreSQL when DATABASE_URL is set (`npx ppa-indexer sync --follow` keeps it fresh)
//   the API           → dist/src/server.js when built, else src/server.ts through tsx
//   REDIS_URL unset   → the API limits requests in memory (one instance)
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLE = 'data/sample-ppas.ndjson';

const say = (message) => process.stderr.write(`start: ${message}\n`);

function fail(message, code = 1) {
  say(`ERROR: ${message}`);
  process.exit(code);
}

/** Authorization header from the same variables the API reads. */
function esHeaders(env) {
  if (env.ES_API_KEY) return { Authorization: `ApiKey ${env.ES_API_KEY}` };
  if (env.ES_USERNAME && env.ES_PASSWORD) {
    return {
      Authorization: `Basic ${Buffer.from(`${env.ES_USERNAME}:${env.ES_PASSWORD}`).toString('base64')}`,
    };
  }
  return {};
}

async function esAnswers(url, env) {
  try {
    const response = await fetch(`${url}/_cluster/health`, {
      headers: esHeaders(env),
      signal: AbortSignal.timeout(3000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Runs a command with our stderr; resolves with its exit code and what it printed on stdout. */
function run(command, args, env, { captureStdout = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', captureStdout ? 'pipe' : 'inherit', 'inherit'],
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout }));
  });
}

async function findElasticsearch(env) {
  if (env.ES_URL) {
    const first = env.ES_URL.split(',')[0].trim().replace(/\/+$/, '');
    if (!(await esAnswers(first, env))) fail(`Elasticsearch does not answer at ES_URL=${first}`);
    return env.ES_URL;
  }
  const localPort = env.ES_PORT?.trim() || '9200';
  const LOCAL_ES = `http://127.0.0.1:${localPort}`;
  if (await esAnswers(LOCAL_ES, env)) {
    say(`using the Elasticsearch answering at ${LOCAL_ES}`);
    return LOCAL_ES;
  }
  say(
    `ES_URL is unset and nothing answers on ${LOCAL_ES}: starting a local Elasticsearch (scripts/elasticsearch.sh)`,
  );
  const { code, stdout } = await run(
    'bash',
    ['scripts/elasticsearch.sh', 'start'],
    { ...env, ES_PORT: localPort },
    { captureStdout: true },
  );
  if (code !== 0) fail('could not start a local Elasticsearch (see above)', code);
  say('it keeps running after the API stops: `npm run es:stop` stops it');
  return stdout.trim().split('\n').pop() || LOCAL_ES;
}

async function aliasExists(esUrl, alias, env) {
  const first = esUrl.split(',')[0].trim().replace(/\/+$/, '');
  const response = await fetch(`${first}/${encodeURIComponent(alias)}`, {
    method: 'HEAD',
    headers: esHeaders(env),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  fail(`Elasticsearch answered HTTP ${response.status} when asked for ${alias}`);
}

/** Until /health/ready answers 200 (Elasticsearch and the alias reachable): never counted by the rate limit. */
async function waitUntilReady(base, server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) return false;
    try {
      const response = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * A listed slug for the examples, asked of Elasticsearch directly: a request to the API would spend one of the
 * local client's rate-limit points before the user sends any.
 */
async function firstSlug(esUrl, alias, env) {
  try {
    const first = esUrl.split(',')[0].trim().replace(/\/+$/, '');
    const response = await fetch(`${first}/${encodeURIComponent(alias)}/_search`, {
      method: 'POST',
      headers: { ...esHeaders(env), 'Content-Type': 'application/json' },
      body: JSON.stringify({ size: 1, query: { term: { active: true } }, _source: ['slug'], sort: ['slug'] }),
      signal: AbortSignal.timeout(5000),
    });
    const body = await response.json();
    return body?.hits?.hits?.[0]?._source?.slug;
  } catch {
    return undefined;
  }
}

async function main() {
  const env = { ...process.env };
  // A fresh clone: install the locked dependencies first, so `npm start` is the only command needed.
  if (!existsSync(`${ROOT}node_modules/.package-lock.json`)) {
    say('node_modules is missing: running npm ci');
    const { code } = await run('npm', ['ci', '--no-audit', '--no-fund'], env);
    if (code !== 0) fail('npm ci failed (see above)', code);
  }
  const alias = env.ES_INDEX?.trim() || 'ppas';
  env.ES_URL = await findElasticsearch(env);

  if (await aliasExists(env.ES_URL, alias, env)) {
    say(`alias ${alias} exists: serving it as it is (\`npm run reindex -- --source ${SAMPLE}\` rebuilds it)`);
  } else {
    const databaseUrl = env.DATABASE_URL?.trim();
    // The password, if any, stays out of the terminal.
    const shown = databaseUrl?.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
    say(
      databaseUrl
        ? `alias ${alias} is missing: indexing PostgreSQL (DATABASE_URL=${shown}); keep it fresh with \`npx ppa-indexer sync --follow\``
        : `alias ${alias} is missing: indexing the sample data (${SAMPLE})`,
    );
    const { code } = await run(
      process.execPath,
      ['bin/ppa-indexer.js', 'reindex', '--source', databaseUrl || SAMPLE, '--alias', alias],
      env,
    );
    if (code !== 0) fail(`the indexer failed with exit code ${code}`, code);
  }

  const compiled = `${ROOT}dist/src/server.js`;
  const args = existsSync(compiled) ? [compiled] : ['--import', 'tsx', 'src/server.ts'];
  if (!env.REDIS_URL) say('REDIS_URL is unset: rate limits are kept in memory (one instance)');
  // Its own process group: a terminal's Ctrl-C reaches this script only, which passes it on once (the API takes
  // a second signal as "exit now").
  const server = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', detached: true });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (server.exitCode === null) server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    });
  }
  process.on('exit', () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  });
  const exited = new Promise((resolve) =>
    server.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );

  const port = env.PORT?.trim() || '3000';
  const host = env.HOST?.trim() || '0.0.0.0';
  const localHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const local = `http://${localHost}:${port}`;
  if (await waitUntilReady(local, server)) {
    const base = env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '') || local;
    const slug = await firstSlug(env.ES_URL, alias, env);
    const lines = [
      '',
      `PPA search API: ${base}`,
      `Explorer: ${base}/   API reference: ${base}/api/v1/docs`,
      'Try:',
      `  ${base}/api/v1/ppas?q=solar`,
      `  ${base}/api/v1/ppas?technology=wind,hydro&sort=capacity_desc&per_page=5`,
      `  ${base}/api/v1/ppas/statistics`,
      ...(slug ? [`  ${base}/api/v1/ppas/${slug}`] : []),
      `  ${base}/api/v1/openapi.json`,
      'Ctrl-C stops the API.',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  process.exit(await exited);
}

await main();
