// `npm run db:migrate`: applies db/migrations/*.sql in name order, each once, each in its own transaction,
// recording it in schema_migrations. An advisory lock keeps two migrators (two containers starting) apart.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { projectFile } from '../indexContract/projectFile.js';

// Beside the code: db/migrations from the source, and from the build (dist/db/) too.
const MIGRATIONS_DIR = fileURLToPath(projectFile('db/migrations/'));
// Any constant shared by every migrator of this schema.
const MIGRATION_LOCK = 184_467_001;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((name) => /^\d+_[\w-]+\.sql$/.test(name)).sort();
}

export async function migrate(client: pg.ClientBase): Promise<MigrationResult> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
        (row) => row.name,
      ),
    );
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const name of await migrationFiles()) {
      if (done.has(name)) {
        result.alreadyApplied.push(name);
        continue;
      }
      const sql = await readFile(`${MIGRATIONS_DIR}${name}`, 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      result.applied.push(name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim();
  if (!url) throw new Error('DATABASE_URL is not set (postgres://USER[:PASS]@HOST[:PORT]/DB)');
  return url;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = new pg.Client({ connectionString: databaseUrl() });
  try {
    await client.connect();
    const { applied, alreadyApplied } = await migrate(client);
    process.stderr.write(
      `db:migrate: applied ${applied.length ? applied.join(', ') : 'nothing'}` +
        ` (${alreadyApplied.length} already applied)\n`,
    );
  } catch (error) {
    process.stderr.write(`db:migrate: ${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await client.end();
  }
}
