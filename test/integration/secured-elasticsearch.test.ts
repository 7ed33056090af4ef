// The API and the indexer against an Elasticsearch node with security on (authentication required), started by
// scripts/elasticsearch.sh with ES_SECURITY=true: with credentials both work, without them both say so.
//
// Basic auth (ES_USERNAME/ES_PASSWORD, the built-in user elastic) is what this distribution can test: API keys
// live in the security index, whose mapping needs the analysis-common module that the test distribution lacks
// (creating a key answers 400 "Unknown filter type [pattern_capture]"). ES_API_KEY goes through the same client
// option (auth) as basic auth does; the configuration tests check that both are read and never together.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { runCli, summaryOf } from '../support/indexerCliProcess.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { freePort, uniqueName } from '../support/services.js';

const PASSWORD = `ppa-test-${process.pid}`;

/** The API process on `esUrl` and `alias`, with `extra` variables; resolves with it and its base URL. */
async function startApi(esUrl: string, alias: string, extra: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ES_URL: esUrl,
      ES_INDEX: alias,
      LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: 'ignore',
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** /health/ready's status once the API answers at all (0 if it never does within the time). */
async function readiness(base: string, until: (status: number) => boolean): Promise<number> {
  const deadline = Date.now() + 60_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = await fetch(`${base}/health/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (until(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return status;
}

describe('a secured Elasticsearch (authentication required)', function () {
  this.timeout(180_000);
  let esPort = 0;
  let esUrl = '';
  let server: ChildProcess | undefined;
  const alias = uniqueName('secured');
  const credentials = { ES_USERNAME: 'elastic', ES_PASSWORD: PASSWORD };

  before(async () => {
    esPort = await freePort();
    const started = spawnSync('bash', ['scripts/elasticsearch.sh', 'start'], {
      env: {
        ...process.env,
        ES_PORT: String(esPort),
        ES_HEAP: '384m',
        ES_SECURITY: 'true',
        ES_ELASTIC_PASSWORD: PASSWORD,
      },
      encoding: 'utf8',
      timeout: 150_000,
    });
    expect(started.status, started.stderr).to.equal(0);
    esUrl = started.stdout.trim().split('\n').pop() ?? '';
  });

  after(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    spawnSync('bash', ['scripts/elasticsearch.sh', 'stop', '--purge'], {
      env: { ...process.env, ES_PORT: String(esPort) },
      encoding: 'utf8',
    });
  });

  it('refuses anonymous requests (the node really is secured)', async () => {
    const response = await fetch(`${esUrl}/_cluster/health`);
    expect(response.status).to.equal(401);
  });

  it('the indexer without credentials exits 3 naming the refusal; with them it builds and swaps the alias', async () => {
    const refused = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias], { ES_URL: esUrl });
    expect(refused.code).to.equal(3);
    expect(refused.stderr).to.match(/401|security_exception|authentication/i);

    const indexed = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias], {
      ES_URL: esUrl,
      ...credentials,
    });
    expect(indexed.code, indexed.stderr).to.equal(0);
    expect(Number(summaryOf(indexed).indexed)).to.be.greaterThan(0);
  });

  it('the API with credentials is ready and answers; the same API without them is not ready', async () => {
    const secured = await startApi(esUrl, alias, credentials);
    server = secured.child;
    expect(await readiness(secured.base, (status) => status === 200)).to.equal(200);
    const list = (await (await fetch(`${secured.base}/api/v1/ppas?q=solar&per_page=1`)).json()) as {
      meta: { total: number };
    };
    expect(list.meta.total).to.be.greaterThan(0);
    server.kill('SIGTERM');
    await once(server, 'exit');

    const anonymous = await startApi(esUrl, alias);
    server = anonymous.child;
    expect(await readiness(anonymous.base, (status) => status !== 0)).to.equal(503);
  });
});
