// Opens the source a --source names: a postgres:// URL, else a file path or `-`.
import type { Readable } from 'node:stream';
import { FileSource } from './fileSource.js';
import type { RecordSource } from './recordSource.js';

/** A source name that is a PostgreSQL connection URL. */
export function isPostgresUrl(source: unknown): source is string {
  return typeof source === 'string' && /^postgres(ql)?:\/\//i.test(source);
}

export interface OpenSourceOptions {
  /** PostgreSQL: the relation to read (default ppa_index_records). */
  relation?: string;
  /** PostgreSQL: the catch-up's overlap window (sync's --overlap). */
  overlapSeconds?: number;
  signal?: AbortSignal;
}

export async function openRecordSource(
  source: string | Readable,
  options: OpenSourceOptions = {},
): Promise<RecordSource> {
  if (isPostgresUrl(source)) {
    // Loaded only when asked for, so file runs never load the PostgreSQL driver.
    const { PostgresSource } = await import('./postgresSource.js');
    return PostgresSource.open(source, options.relation, options.overlapSeconds);
  }
  return FileSource.open(source, options.signal);
}
