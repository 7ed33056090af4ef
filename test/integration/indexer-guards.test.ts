// Acceptance of the guards (docs/operations.md, "Guards against mass removal"): a reindex from a file that lost 20 %
// of its lines stops before the swap (exit 5) and the live set stays the same; `reindex --plan` prints the right
// counts on a known difference and builds nothing; a TRUNCATE in PostgreSQL leaves the live index whole while
// sync --follow keeps refusing, /health/ready and the metrics say why, and a repaired source lets sync through.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTarget, dataIndices } from '../../indexer/elasticsearch/aliases.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { EXIT_CODES } from '../../indexer/exitCodes.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { runCli, startCli, type RunningCli } from '../support/indexerCliProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const lines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
const records = lines.map((line) => JSON.parse(line) as PpaRecord);
const published = records.filter((record) => record.published);

async function count(client: ReturnType<typeof testEsClient>, alias: string): Promise<number> {
  await client.indices.refresh({ index: alias });
  return (await client.count({ index: alias })).count;
}

describe('indexer: guards against mass removal', function () {
  this.timeout(240_000);
  const client = testEsClient();
  const dir = mkdtempSync(join(tmpdir(), 'ppa-guards-'));
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await client.close();
  });

  describe('reindex from a file', () => {
    const alias = uniqueName('idx-guard');
    before(async () => {
      await runCli(['reindex', '--alias', alias, '--source', SAMPLE_PATH]);
    });
    after(() => deleteIndices(client, alias));

    it('a file missing 20 % of its lines stops before the swap (exit 5); the live set stays the same', async () => {
      const live = await aliasTarget(client, alias);
      const before = await count(client, alias);
      const indices = (await dataIndices(client, alias)).map((index) => index.index);
      const truncated = join(dir, 'truncated.ndjson');
      writeFileSync(truncated, `${lines.slice(0, Math.floor(lines.length * 0.8)).join('\n')}\n`);
      const result = await runCli(['reindex', '--alias', alias, '--source', truncated]);
      expect(result.code, result.stderr).to.equal(EXIT_CODES.guard);
      const last = result.stderr.trimEnd().split('\n').at(-1)!;
      expect(last).to.match(
        /^ppa-indexer reindex failed \(exit 5\): the new generation would remove \d+ of the \d+ live PPAs/,
      );
      expect(last).to.include('--max-removed 100%');
      expect(await aliasTarget(client, alias)).to.equal(live);
      expect(await count(client, alias)).to.equal(before);
      expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal(indices);
      // Meant removals go through when the operator says so.
      const forced = await runCli([
        'reindex',
        '--alias',
        alias,
        '--source',
        truncated,
        '--max-removed',
        '100%',
      ]);
      expect(forced.code, forced.stderr).to.equal(0);
      expect(await count(client, alias)).to.be.below(before);
    });

    it('--plan prints the right counts on a known difference and builds nothing', async () => {
      // The live generation is now the full sample again.
      await runCli(['reindex', '--alias', alias, '--source', SAMPLE_PATH, '--max-removed', '100%']);
      const indices = (await dataIndices(client, alias)).map((index) => index.index);
      const removed = published.slice(0, 3).map((record) => record.slug);
      const updated = published.slice(3, 5).map((record) => record.slug);
      const changed = records
        .filter((record) => !removed.includes(record.slug))
        .map((record) =>
          updated.includes(record.slug) ? { ...record, capacity_mw: record.capacity_mw + 7 } : record,
        );
      const addedSlug = uniqueName('plan-added');
      changed.push({ ...published[6]!, slug: addedSlug, reference_code: addedSlug.toUpperCase() });
      const source = join(dir, 'plan.ndjson');
      writeFileSync(source, `${changed.map((record) => JSON.stringify(record)).join('\n')}\n`);
      const result = await runCli(['reindex', '--alias', alias, '--source', source, '--plan']);
      expect(result.code, result.stderr).to.equal(0);
      const plan = (JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { plan: Record<string, unknown> })
        .plan;
      expect(plan).to.include({
        added: 1,
        updated: 2,
        removed: 3,
        unchanged: published.length - 5,
        would_stop: false,
        max_removed: '5%',
      });
      expect(plan.examples).to.deep.equal({
        added: [addedSlug],
        updated: [...updated].sort(),
        removed: [...removed].sort(),
      });
      expect(result.stderr).to.match(/removed\s+3\s+/);
      expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal(indices);
      // With a tighter limit the plan says the reindex would stop.
      const strict = await runCli([
        'reindex',
        '--alias',
        alias,
        '--source',
        source,
        '--plan',
        '--max-removed',
        '2',
      ]);
      expect(JSON.parse(strict.stdout.trim().split('\n').at(-1)!).plan.would_stop).to.equal(true);
    });
  });

  describe('sync from PostgreSQL', () => {
    const alias = uniqueName('idx-guard-sync');
    let db: TestDatabase;
    let app: TestApp;
    let sync: RunningCli;

    before(async () => {
      db = await createTestDatabase({ seed: true });
      await reindex({ client, alias, source: db.url });
      app = await buildTestApp({ alias, withMetrics: true });
      sync = startCli(['sync', '--follow', '--alias', alias, '--interval', '1', '--reconcile-every', '1'], {
        DATABASE_URL: db.url,
      });
      await sync.waitForStderr('following changes');
    });
    after(async () => {
      if (sync && sync.child.exitCode === null) {
        sync.child.kill('SIGTERM');
        await sync.result;
      }
      await app?.close();
      await deleteIndices(client, alias);
      await db?.drop();
    });

    const ready = async (): Promise<{ sync: Record<string, unknown> }> => {
      const response = await fetch(`${app.url}/health/ready`);
      expect(response.status).to.equal(200);
      return (await response.json()) as { sync: Record<string, unknown> };
    };
    const gauge = async (name: string): Promise<number | null> => {
      const text = await app.metrics!.registry.metrics();
      const line = text.split('\n').find((row) => row.startsWith(`${name} `));
      return line === undefined ? null : Number(line.split(' ')[1]);
    };

    it('a TRUNCATE leaves the live index whole; readiness and a gauge say why; a repaired source goes through', async () => {
      const before = await count(client, alias);
      expect((await ready()).sync.status).to.equal('ok');
      expect(await gauge('ppa_sync_guard_holding')).to.equal(0);
      // Sync's lag is how far behind its last complete run reads (a run a second here).
      expect(await gauge('ppa_sync_lag_seconds')).to.be.within(0, 90);
      expect(await gauge('ppa_change_lag_seconds'), 'no change logged yet').to.equal(0);
      await db.query('TRUNCATE ppas CASCADE');
      let held: Record<string, unknown> = {};
      for (let waited = 0; waited < 20_000; waited += 250) {
        held = (await ready()).sync;
        if (held.status === 'held') break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(held.status, JSON.stringify(held)).to.equal('held');
      expect(held).to.include({ removals: before, live: before, max_removed: '5%' });
      expect(String(held.detail)).to.match(/would remove \d+ of \d+ live PPAs/);
      expect(await gauge('ppa_sync_guard_holding')).to.equal(1);
      expect(await gauge('ppa_sync_guard_removals')).to.equal(before);
      // Several runs later (one a second, each reconciling) nothing was removed, and sync keeps running.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(await count(client, alias)).to.equal(before);
      expect(sync.child.exitCode).to.equal(null);
      // A one-shot run refuses too, with its own exit code and a sentence on what to do (the follower stopped:
      // one sync per alias).
      sync.child.kill('SIGTERM');
      await sync.result;
      const once = await runCli(['sync', '--alias', alias], { DATABASE_URL: db.url });
      expect(once.code, once.stderr).to.equal(EXIT_CODES.guard);
      expect(once.stderr.trimEnd().split('\n').at(-1)).to.match(
        /^ppa-indexer sync failed \(exit 5\): this sync run would remove .*nothing was applied.*--max-removed 100%/,
      );

      // The source repaired: the next run passes, and readiness and the gauge clear.
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(ppa_upsert_record(r))::int AS n FROM jsonb_array_elements($1::jsonb) AS r',
        [JSON.stringify(records)],
      );
      expect(rows[0]!.n).to.equal(records.length);
      sync = startCli(['sync', '--follow', '--alias', alias, '--interval', '1', '--reconcile-every', '1'], {
        DATABASE_URL: db.url,
      });
      for (let waited = 0; waited < 20_000; waited += 250) {
        if ((await ready()).sync.status === 'ok') break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect((await ready()).sync.status).to.equal('ok');
      expect(await gauge('ppa_sync_guard_holding')).to.equal(0);
      expect(await count(client, alias)).to.equal(before);
      // The rows came back as they were: nothing changed for a client, so nothing was logged. One real change
      // is, and the change lag grows from then on.
      expect((await ready()).sync.changes_head).to.equal(0);
      await db.query('UPDATE ppas SET capacity_mw = capacity_mw + 1 WHERE slug = $1', [published[0]!.slug]);
      for (let waited = 0; waited < 15_000; waited += 250) {
        if (Number((await ready()).sync.changes_head) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect((await ready()).sync.changes_head).to.be.above(0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await gauge('ppa_change_lag_seconds')).to.be.within(1, 60);
    });
  });
});
