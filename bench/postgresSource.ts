// `npm run bench -- postgres`: the PostgreSQL source against the file source (issue 18). Generates N records
// (default 100k), loads them into a fresh database with the reference schema (db/), then
//   1. reindexes the same records from the NDJSON file and from PostgreSQL, alternating (file, pg, pg, file, …),
//      and reports docs/s of each and their ratio (target: PostgreSQL ≥ 0.8× the file);
//   2. changes --changes rows (default 1,000: nine in ten edited, one in ten unpublished) and times one sync run
//      applying them to the live index (changes/s), then one run that only compares slugs (reconcile).
// Writes bench/results/<date>-postgres.md (unless --no-write). The database is PG_URL / DATABASE_URL /
// 127.0.0.1:5432 or a throwaway server (tools/services/postgres.ts); it and every index are removed at the end.
//
//   npm run bench -- postgres                        # 100k records, 2 rounds per side
//   npm run bench -- postgres --count 10000 --rounds 1 --no-write
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedFromFile } from '../db/seed.js';
import { positiveInteger } from '../indexer/optionParsers.js';
import { Sync, type SyncRunSummary } from '../indexer/sync/sync.js';
import { createTestDatabase } from '../tools/services/postgres.js';
import { withFixture } from './fixture.js';
import { defineSuite, type SharedOptions } from './suite.js';
import { timeReindex, type ReindexTiming } from './perf/indexing.js';
import { machineInfo } from './perf/machine.js';

interface PostgresOptions extends SharedOptions {
  rounds: number;
  changes: number;
}

export default defineSuite<PostgresOptions>({
  name: 'postgres',
  module: import.meta.url,
  summary: 'the PostgreSQL source: reindex from it against the file, and sync',
  count: 100_000,
  seed: 20261122,
  writes: true,
  options: (command) =>
    command
      .option('--rounds <n>', 'reindexes per side', positiveInteger, 2)
      .option('--changes <n>', 'rows changed for the sync measure', positiveInteger, 1000),
  quick: { count: 300, args: ['--rounds', '1', '--changes', '30'] },
  run: postgresBench,
});

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fmt = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const say = (message: string): void => void process.stderr.write(`postgres: ${message}\n`);

async function postgresBench(options: PostgresOptions): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  await withFixture('postgres', async (fixture) => {
    const { alias, client } = fixture.index();
    const db = await createTestDatabase();
    fixture.defer(() => db.drop());
    const corpus = await fixture.corpus({ count: options.count, seed: options.seed, sampleSize: 1 });
    const path = corpus.path;

    const loader = new pg.Client({ connectionString: db.url });
    loader.on('error', () => undefined); // a Ctrl-C drops the database under it: no unhandled 'error'
    await loader.connect();
    const seedStarted = performance.now();
    await seedFromFile(loader, path);
    await loader.query('VACUUM ANALYZE');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    say(`loaded them into PostgreSQL in ${fmt(seedSeconds, 1)} s`);

    // Alternating order, so drift on a shared machine does not favour one side.
    const runs: { side: 'file' | 'postgres'; timing: ReindexTiming }[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const order: ('file' | 'postgres')[] = round % 2 === 0 ? ['file', 'postgres'] : ['postgres', 'file'];
      for (const side of order) {
        const timing = await timeReindex(client, `${alias}-${side}`, side === 'file' ? path : db.url);
        runs.push({ side, timing });
        say(
          `${side}: ${fmt(timing.docs)} docs in ${fmt(timing.seconds, 1)} s, ${fmt(timing.docsPerSecond)} docs/s`,
        );
      }
    }
    const docsPerSecond = (side: 'file' | 'postgres'): number =>
      median(runs.filter((run) => run.side === side).map((run) => run.timing.docsPerSecond));
    const ratio = docsPerSecond('postgres') / docsPerSecond('file');

    // Sync: --changes rows changed after the PostgreSQL index was built, applied by one run.
    const unpublished = Math.round(options.changes / 10);
    await loader.query(
      `WITH picked AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM ppas WHERE published ORDER BY id LIMIT $1)
     UPDATE ppas SET project_name = CASE WHEN picked.n > $2 THEN project_name || ' II' ELSE project_name END,
                     published = picked.n > $2
       FROM picked WHERE ppas.id = picked.id`,
      [options.changes, unpublished],
    );
    await loader.end();
    const sync = new Sync({ client, alias: `${alias}-postgres`, url: db.url });
    let applied: SyncRunSummary;
    let reconciled: SyncRunSummary;
    try {
      applied = await sync.run(() => false);
      reconciled = await sync.run(() => true);
    } finally {
      await sync.close();
    }
    const changesPerSecond = (applied.written + applied.deleted) / applied.seconds;
    say(
      `sync: ${applied.written} written + ${applied.deleted} deleted in ${applied.seconds} s ` +
        `(${fmt(changesPerSecond)} changes/s); reconcile of ${fmt(corpus.records)} rows: ${reconciled.seconds} s`,
    );

    const machine = machineInfo();
    const lines = [
      `# PostgreSQL source benchmark, ${new Date().toISOString().slice(0, 10)}`,
      '',
      'Generated by `npm run bench -- postgres` (bench/postgresSource.ts).',
      '',
      `- Machine: ${machine.cores} cores (${machine.cpuModel}), ${fmt(machine.memoryGiB, 1)} GiB, ${machine.platform}; ` +
        `load average at the start ${loadAtStart}, at the end ${machine.loadAverage} (a machine shared with other jobs)`,
      `- Node ${machine.node}; PostgreSQL ${(await db.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version} on the same machine`,
      `- Records: ${fmt(corpus.records)} generated (${fmt(corpus.published)} published), seed ${options.seed}; ` +
        `loaded into the reference schema in ${fmt(seedSeconds, 1)} s (ppa_upsert_record, 500 a statement)`,
      `- Whole run: ${fmt((performance.now() - started) / 60_000, 1)} min`,
      '',
      '### Reindex: the same records from the file and from PostgreSQL',
      '',
      '| run | source | docs | seconds | docs/s | validate s | load s | finish s | peak RSS MB |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ({ side, timing }, n) =>
          `| ${n + 1} | ${side} | ${fmt(timing.docs)} | ${fmt(timing.seconds, 1)} | ${fmt(timing.docsPerSecond)} | ` +
          `${fmt(timing.phases.validate, 1)} | ${fmt(timing.phases.load, 1)} | ${fmt(timing.phases.finish, 1)} | ${timing.maxRssMb} |`,
      ),
      '',
      `Median docs/s: file ${fmt(docsPerSecond('file'))}, PostgreSQL ${fmt(docsPerSecond('postgres'))}: ` +
        `**${fmt(ratio, 2)}×** (target ≥ 0.8×). PostgreSQL's "finish" includes the catch-up (changes since the ` +
        'snapshot and a slug comparison) before the swap. Peak RSS is the bench process, cumulative.',
      '',
      `### Sync: ${fmt(options.changes)} changed rows (${fmt(options.changes - unpublished)} edited, ${fmt(unpublished)} unpublished)`,
      '',
      '| run | written | deleted | seconds | changes/s |',
      '|---|---:|---:|---:|---:|',
      `| changes (no reconcile) | ${applied.written} | ${applied.deleted} | ${applied.seconds} | ${fmt(changesPerSecond)} |`,
      `| reconcile only (${fmt(corpus.records)} slugs compared) | ${reconciled.written} | ${reconciled.deleted} | ${reconciled.seconds} | – |`,
      '',
    ];
    const report = lines.join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) {
      const file = join('bench/results', `${new Date().toISOString().slice(0, 10)}-postgres.md`);
      await writeFile(file, report);
      say(`wrote ${file}`);
    }
  });
}
