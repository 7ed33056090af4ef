// `npm run db:seed [-- [--if-empty] [FILE]]`: loads an NDJSON source file (default data/sample-ppas.ndjson) into
// the reference schema through ppa_upsert_record, 500 records a statement, in one transaction; records keep their
// own updated_at. --if-empty does nothing when ppas has a row (compose seeds a new database only). Run the
// migrations first.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { projectFile } from '../indexContract/projectFile.js';
import { databaseUrl } from './migrate.js';

export const SAMPLE_FILE = fileURLToPath(projectFile('data/sample-ppas.ndjson'));
const BATCH = 500;

/** Writes records (source-record objects or their JSON text) into the tables; returns how many. */
export async function upsertRecords(client: pg.ClientBase, records: (object | string)[]): Promise<number> {
  if (records.length === 0) return 0;
  const json = `[${records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join(',')}]`;
  await client.query('SELECT count(ppa_upsert_record(r)) FROM jsonb_array_elements($1::jsonb) AS r', [json]);
  return records.length;
}

export async function seedFromFile(client: pg.ClientBase, path: string = SAMPLE_FILE): Promise<number> {
  let batch: string[] = [];
  let total = 0;
  await client.query('BEGIN');
  try {
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      batch.push(line);
      if (batch.length >= BATCH) {
        total += await upsertRecords(client, batch);
        batch = [];
      }
    }
    total += await upsertRecords(client, batch);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return total;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = new pg.Client({ connectionString: databaseUrl() });
  const args = process.argv.slice(2);
  const ifEmpty = args.includes('--if-empty');
  const path = args.find((arg) => arg !== '--if-empty') ?? SAMPLE_FILE;
  try {
    await client.connect();
    const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM ppas) AS any');
    if (ifEmpty && rows[0]?.any) process.stderr.write('db:seed: ppas has rows already; nothing loaded\n');
    else {
      const count = await seedFromFile(client, path);
      process.stderr.write(`db:seed: ${count} records from ${path}\n`);
    }
  } catch (error) {
    process.stderr.write(`db:seed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await client.end();
  }
}
