// The relation the indexer reads from PostgreSQL (docs/record.md): `slug text, updated_at timestamptz,
// record json|jsonb` (read as text). Shared by reindex (postgresSource.ts) and sync (postgresChanges.ts).
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { FieldProblem } from './recordSchema.js';
import { UsageError } from '../errors.js';

export const DEFAULT_RELATION = 'ppa_index_records';

const SLUGS_PER_FETCH = 10_000;

/** The channel the reference schema's trigger notifies (db/migrations/003_notify_trigger.sql). */
export const NOTIFY_CHANNEL = 'ppa_index_records';

/**
 * For the read transactions of reindex and sync. The view's plan costs far above jit_above_cost, so PostgreSQL
 * compiles its expressions for a query whose per-row work is function calls JIT does not speed up: the read is
 * slower with it (docs/performance.md).
 */
export const NO_JIT = 'SET LOCAL jit = off';

/** Timestamps go to and come from PostgreSQL as text with microseconds, so nothing is lost on the way. */
export const UTC_MICROSECONDS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** `name` or `schema.name`, each part an unquoted SQL identifier; returned quoted, ready for a query. */
export function quotedRelation(name: string): string {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((part) => /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(part)))
    throw new UsageError(
      `--relation must be NAME or SCHEMA.NAME (letters, digits, _), got ${JSON.stringify(name)}`,
    );
  return parts.map((part) => `"${part}"`).join('.');
}

/** Problems a row has beyond its record's schema: its slug column must be its record's slug. */
export function rowProblems(slug: unknown, record: unknown): FieldProblem[] {
  const recordSlug = (record as { slug?: unknown } | null)?.slug;
  if (typeof recordSlug === 'string' && recordSlug !== slug)
    return [{ field: 'slug', message: `differs from the relation's slug column (${JSON.stringify(slug)})` }];
  return [];
}

/**
 * The relation's slugs (nulls left out) in byte order, the order of Elasticsearch's keyword, streamed; `quoted`
 * as quotedRelation returns it. Only the slug column is read: the reference view does not build records for it.
 */
export async function* sortedSlugs(db: pg.Client, quoted: string): AsyncGenerator<string> {
  const rows = db.query(
    new QueryStream(`SELECT slug FROM ${quoted} WHERE slug IS NOT NULL ORDER BY slug COLLATE "C"`, [], {
      batchSize: SLUGS_PER_FETCH,
      rowMode: 'array',
    }),
  );
  try {
    for await (const [slug] of rows as AsyncIterable<[string]>) yield slug;
  } finally {
    rows.destroy();
  }
}
