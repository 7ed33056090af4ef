// A reindex's GenerationBuild (indexer/reindex/reindexRun.ts) made by hand, for the unit tests of the phases after
// the load (checkIndex.ts, swap.ts): the fake Elasticsearch's client, a record source in memory validated as a run
// validates it, the alias's generations lock taken, and the new index named.
import { AliasLock } from '../../indexer/elasticsearch/lock.js';
import { silentLogger, type GenerationBuild, type ReindexOptions } from '../../indexer/reindex/reindexRun.js';
import type { FakeElasticsearch } from './fakeElasticsearch.js';
import { FakeRecordSource } from './fakeRecordSource.js';

export async function generationBuild(
  es: FakeElasticsearch,
  {
    index,
    previousIndex = null,
    records = [],
    options = {},
  }: {
    index: string;
    previousIndex?: string | null;
    records?: readonly unknown[];
    options?: Partial<ReindexOptions>;
  },
): Promise<GenerationBuild & { source: FakeRecordSource }> {
  const source = new FakeRecordSource(records);
  const report = await source.validate({});
  const lock = await AliasLock.acquire(es.client, 'ppas');
  return {
    options: { client: es.client, alias: 'ppas', source: '-', ...options },
    client: es.client,
    alias: 'ppas',
    logger: silentLogger,
    signal: options.signal,
    source,
    report,
    lock,
    index,
    builtAt: new Date(),
    previousIndex,
    unpublished: new Set(),
    built: undefined,
  };
}
