// `npm start` (scripts/start.mjs), the README's first command: it finds Elasticsearch, indexes the sample data
// when the alias is missing, serves the API, prints URLs that work, and passes SIGTERM on to the API.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../support/postgres.js';
import { ES_URL, deleteIndices, freePort, testEsClient, uniqueName } from '../support/services.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The Elasticsearch version the suite runs on (ES_VERSION=9.2.0 npm test): the fresh-machine path starts that one,
// and stopping it must name the same version, or the stop would look for another server and leave this one running.
const SUITE_ES: Record<string, string> = process.env.ES_VERSION ? { ES_VERSION: process.env.ES_VERSION } : {};

interface Started {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      ...SUITE_ES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout, stderr, exited };
}

async function waitForOutput(started: Started, text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!started.stdout.join('').includes(text)) {
    if (started.child.exitCode !== null) {
      throw new Error(`start.mjs exited ${started.child.exitCode}:\n${started.stderr.join('')}`);
    }
    if (Date.now() > deadline)
      throw new Error(`no "${text}" in:\n${started.stdout.join('')}\n${started.stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('quick start: npm start', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('quickstart');
  let running: Started | undefined;

  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    running = undefined;
  });

  after(async () => {
    await deleteIndices(client, alias);
    await client.close();
  });

  it('indexes the sample when the alias is missing, serves it, prints URLs that answer, and stops on SIGTERM', async () => {
    const port = await freePort();
    running = start({ ES_URL, ES_INDEX: alias, PORT: String(port), HOST: '127.0.0.1' });
    await waitForOutput(running, 'Ctrl-C stops the API.');
    const stderr = running.stderr.join('');
    expect(stderr).to.include(`alias ${alias} is missing: indexing the sample data`);
    expect(stderr).to.include('rate limits are kept in memory');

    const printed = running.stdout.join('');
    expect(printed).to.include(`PPA search API: http://127.0.0.1:${port}`);
    const urls = [...printed.matchAll(/^ {2}(http:\/\/\S+)$/gm)].map((match) => match[1] as string);
    expect(urls.length).to.be.at.least(3);
    // npm start checked itself without spending the local client's quota: this is its first counted request.
    const first = await fetch(urls[0] as string);
    expect(first.headers.get('x-ratelimit-limit')).to.equal('60');
    expect(first.headers.get('x-ratelimit-remaining'), 'no point spent by npm start').to.equal('59');
    for (const url of urls) {
      const response = await fetch(url);
      expect(response.status, url).to.equal(200);
    }
    const list = (await (await fetch(urls[0] as string)).json()) as {
      data: unknown[];
      meta: { total: number };
    };
    expect(list.meta.total, 'q=solar finds sample PPAs').to.be.greaterThan(0);

    running.child.kill('SIGTERM');
    expect(await running.exited).to.equal(0);
    let refused = false;
    await fetch(`http://127.0.0.1:${port}/health/live`).catch(() => (refused = true));
    expect(refused, 'the API stopped with the script').to.equal(true);
  });

  it('serves an alias that exists as it is, without reindexing', async () => {
    const before = await client.indices.getAlias({ name: alias });
    const port = await freePort();
    running = start({ ES_URL, ES_INDEX: alias, PORT: String(port), HOST: '127.0.0.1' });
    await waitForOutput(running, 'Ctrl-C stops the API.');
    expect(running.stderr.join('')).to.include(`alias ${alias} exists: serving it as it is`);
    expect(Object.keys(await client.indices.getAlias({ name: alias }))).to.deep.equal(Object.keys(before));
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).to.equal(200);
  });

  it('with DATABASE_URL set, indexes PostgreSQL instead of the sample file (its password not printed)', async () => {
    const db = await createTestDatabase({ seed: true });
    const pgAlias = `${alias}-pg`;
    try {
      await db.query(`UPDATE ppas SET project_name = 'Only In Postgres' WHERE slug = 'evora-nova-solar-1'`);
      const port = await freePort();
      const url = new URL(db.url);
      url.password = 'secret-word'; // trust authentication ignores it; the output must not show it
      running = start({
        ES_URL,
        ES_INDEX: pgAlias,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: url.toString(),
      });
      await waitForOutput(running, 'Ctrl-C stops the API.');
      const stderr = running.stderr.join('');
      expect(stderr).to.include(`alias ${pgAlias} is missing: indexing PostgreSQL`);
      expect(stderr).to.not.include('secret-word');
      const detail = await fetch(`http://127.0.0.1:${port}/api/v1/ppas/evora-nova-solar-1`);
      expect(((await detail.json()) as { data: { project_name: string } }).data.project_name).to.equal(
        'Only In Postgres',
      );
    } finally {
      if (running && running.child.exitCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
      await deleteIndices(client, pgAlias);
      await db.drop();
    }
  });

  it('uses the Elasticsearch answering on 127.0.0.1:$ES_PORT when ES_URL is unset', async () => {
    const esPort = new URL(ES_URL.split(',')[0]!).port || '9200';
    const port = await freePort();
    running = start({ ES_INDEX: alias, ES_PORT: esPort, PORT: String(port), HOST: '127.0.0.1' });
    await waitForOutput(running, 'Ctrl-C stops the API.');
    expect(running.stderr.join('')).to.include(
      `using the Elasticsearch answering at http://127.0.0.1:${esPort}`,
    );
  });

  it('on a machine where no Elasticsearch answers, starts one itself (the fresh-machine path)', async () => {
    const esPort = String(await freePort());
    const port = await freePort();
    const runParent = mkdtempSync(join(tmpdir(), 'quickstart-es-'));
    const runDir = join(runParent, 'es'); // data, logs and pid of the server npm start brings up
    try {
      running = start({
        ES_PORT: esPort,
        ES_RUN_DIR: runDir,
        ES_INDEX: 'ppas',
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      await waitForOutput(running, 'Ctrl-C stops the API.', 170_000);
      expect(running.stderr.join('')).to.include(`nothing answers on http://127.0.0.1:${esPort}`);
      expect(running.stderr.join('')).to.include('indexing the sample data');
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/ppas?q=solar&per_page=1`);
      expect(answer.status).to.equal(200);
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).to.be.above(0);
    } finally {
      if (running && running.child.exitCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
      // The Elasticsearch that npm start started outlives the API by design: stop it here.
      const stopped = spawn('bash', ['scripts/elasticsearch.sh', 'stop', '--purge'], {
        cwd: ROOT,
        env: { ...process.env, ES_PORT: esPort, ES_RUN_DIR: runDir },
        stdio: 'ignore',
      });
      await once(stopped, 'exit');
    }
    // Nothing may outlive the suite: the server it started is gone.
    const stillAnswering = await fetch(`http://127.0.0.1:${esPort}/_cluster/health`).catch(() => null);
    expect(stillAnswering, `an Elasticsearch still answers on port ${esPort}`).to.equal(null);
    expect(existsSync(runDir), `${runDir} is left behind`).to.equal(false);
    rmSync(runParent, { recursive: true, force: true });
  });

  it('stops with the message and code of an Elasticsearch that does not answer', async () => {
    const port = await freePort();
    running = start({ ES_URL: `http://127.0.0.1:${await freePort()}`, ES_INDEX: alias, PORT: String(port) });
    expect(await running.exited).to.equal(1);
    expect(running.stderr.join('')).to.match(
      /Elasticsearch does not answer at ES_URL=http:\/\/127\.0\.0\.1:\d+/,
    );
  });
});
