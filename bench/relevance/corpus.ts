// The relevance corpus: generated records (fixed seed) written to a temp file and indexed with the real reindex
// under a unique alias, so the suite measures the mapping and documents the indexer really writes.
import type { Client } from '@elastic/elasticsearch';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { generateRecords } from '../../indexer/generate/generateRecords.js';
import { writeNdjson } from '../../indexer/generate/writeNdjson.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { reindex } from '../../indexer/reindex.js';

export interface CorpusOptions {
  seed: number;
  count: number;
}

/** 12,000 generated records: about 10,800 published (indexed) and 9,800 live. */
export const DEFAULT_CORPUS: CorpusOptions = { seed: 20261122, count: 12_000 };

export function relevanceAlias(): string {
  return `relevance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export interface IndexedCorpus {
  records: PpaRecord[];
  alias: string;
  indexed: number;
  indexSeconds: number;
}

export async function buildCorpus(
  client: Client,
  alias: string,
  options: CorpusOptions,
): Promise<IndexedCorpus> {
  const records = [...generateRecords(options)];
  const path = join(tmpdir(), `${alias}.ndjson`);
  try {
    const output = createWriteStream(path);
    await writeNdjson(records, output);
    output.end();
    await finished(output);
    const summary = await reindex({ client, alias, source: path });
    await client.indices.refresh({ index: alias });
    return { records, alias, indexed: summary.indexed, indexSeconds: summary.seconds };
  } finally {
    await rm(path, { force: true });
  }
}

/** Deletes the corpus index and the indexer's lock index (every index whose name starts with the alias). */
export async function dropCorpus(client: Client, alias: string): Promise<void> {
  const indices = await client.cat.indices({ index: `${alias}*`, format: 'json', h: 'index' });
  const names = indices.map((row) => row.index).filter((name): name is string => Boolean(name));
  if (names.length > 0) await client.indices.delete({ index: names });
}
