// A real PostgreSQL for the integration tests (test/support/postgres.ts) and the PostgreSQL benchmark: PG_URL or
// DATABASE_URL when it answers, else the one on 127.0.0.1:5432 (CI machines run one), else a throwaway server this
// process starts (initdb + pg_ctl on a free port, as a non-root user when run as root, like
// scripts/elasticsearch.sh) and stops when the last user is done. Every user gets a database of its own, migrated
// with db/migrations, and dropped afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.js';
import { seedFromFile } from '../../db/seed.js';
import { freePort, uniqueName } from './net.js';

const SERVER_USER = 'ppa-pg';

interface Server {
  /** A URL to the server's maintenance database (postgres). */
  adminUrl: string;
  stop: () => void;
}

let server: Promise<Server> | null = null;
let users = 0;

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same server, its maintenance database. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function binDir(): string {
  try {
    execFileSync('sh', ['-c', 'command -v initdb'], { stdio: 'pipe' });
    return '';
  } catch {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
    if (versions[0]) return join(root, versions[0], 'bin');
    throw new Error('PostgreSQL is not installed (initdb not found): apt-get install postgresql');
  }
}

function asServerUser(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    try {
      execFileSync('id', ['-u', SERVER_USER], { stdio: 'pipe' });
    } catch {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER]);
    }
    execFileSync('runuser', ['-u', SERVER_USER, '--', command, ...args], { stdio: 'pipe' });
  } else execFileSync(command, args, { stdio: 'pipe' });
}

async function startThrowaway(): Promise<Server> {
  const bin = binDir();
  const tool = (name: string): string => (bin ? join(bin, name) : name);
  const dir = mkdtempSync(join(tmpdir(), 'ppa-pg-'));
  if (process.getuid?.() === 0) {
    asServerUser('true', []); // creates the user
    const uid = Number(execFileSync('id', ['-u', SERVER_USER]).toString());
    const gid = Number(execFileSync('id', ['-g', SERVER_USER]).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asServerUser(tool('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  asServerUser(tool('pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asServerUser(tool('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function findServer(): Promise<Server> {
  for (const url of [
    process.env.PG_URL,
    process.env.DATABASE_URL,
    'postgres://postgres@127.0.0.1:5432/postgres',
  ]) {
    if (url && (await answers(url))) return { adminUrl: url, stop: () => undefined };
  }
  return startThrowaway();
}

export interface TestDatabase {
  /** postgres:// URL of this suite's own database, migrated (and seeded when asked). */
  url: string;
  /** A client on it, for the test's own statements. */
  query: <R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
  ) => Promise<pg.QueryResult<R>>;
  /** Drops the database; stops the throwaway server after the last suite. */
  drop: () => Promise<void>;
}

/** A fresh database, migrated unless `migrate: false` (with the sample records when `seed`). */
export async function createTestDatabase(
  options: { seed?: boolean; migrate?: boolean } = {},
): Promise<TestDatabase> {
  users++;
  server ??= findServer();
  const { adminUrl } = await server;
  const name = uniqueName('ppa_test').replace(/-/g, '_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  if (options.migrate !== false) await migrate(client);
  if (options.seed) await seedFromFile(client);
  return {
    url,
    query: (sql, params) => client.query(sql, params),
    drop: async () => {
      await client.end();
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      try {
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await again.end();
      }
      if (--users === 0 && server) {
        const started = await server;
        server = null;
        started.stop();
      }
    },
  };
}
