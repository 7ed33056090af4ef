// `npm start` (scripts/start.mjs), the README's first command: it finds Elasticsearch, indexes the sample data
// when the alias is missing, serves the API, prints URLs that work, and passes SIGTERM on to the API. The
// fresh-machine path (no Elasticsearch answering: it starts one) is in the slower leg, test/slow/.
import { expect } from 'chai';
import { createTestDatabase } from '../support/postgres.js';
import { start, waitForOutput, type Started } from '../support/quickstart.js';
import { ES_URL, deleteIndices, freePort, testEsClient, uniqueName } from '../support/services.js';

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

  it('stops with the message and code of an Elasticsearch that does not answer', async () => {
    const port = await freePort();
    running = start({ ES_URL: `http://127.0.0.1:${await freePort()}`, ES_INDEX: alias, PORT: String(port) });
    expect(await running.exited).to.equal(1);
    expect(running.stderr.join('')).to.match(
      /Elasticsearch does not answer at ES_URL=http:\/\/127\.0\.0\.1:\d+/,
    );
  });
});
