// The mix suite's indexing step: a plain `_bulk` of the indexer's documents (after a warm-up that waits for
// Elasticsearch's JIT), the plain mapping, optionally each field family left out, and the real reindex between
// two own loads, so its ratio compares neighbouring runs.
import type { Client } from '@elastic/elasticsearch';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { deleteIndicesWithPrefix, type EsTarget } from '../perf/rawElasticsearch.js';
import {
  FIELD_FAMILIES,
  OWN_MAPPING,
  PLAIN_MAPPING,
  timeRawBulk,
  timeReindex,
  withoutFamily,
  type BulkVariant,
  type EsLoadWork,
  type IndexingTiming,
} from '../perf/indexing.js';
import type { FamilyCost } from '../perf/summary.js';
import { log, type CountSettings } from './common.js';

/** Step 2: raw _bulk, then the real indexer, over the same documents. */
export async function measureIndexing(
  es: EsTarget,
  client: Client,
  alias: string,
  sourcePath: string,
  workDir: string,
  settings: Pick<CountSettings, 'mappingCost' | 'quick'>,
) {
  // The plain loads first, then the indexer, so the index the API reads is the freshest thing on the disk.
  const bulkPath = join(workDir, `${alias}.bulk`);
  const rawIndex = `${alias}-rawbulk`;
  const load = async (variant: BulkVariant) => {
    log(`plain _bulk: ${variant.name}…`);
    const timing = await timeRawBulk(es, sourcePath, rawIndex, bulkPath, variant);
    await deleteIndicesWithPrefix(es, rawIndex);
    await rm(bulkPath, { force: true });
    log(
      `${variant.name}: ${timing.docs} docs in ${timing.seconds.toFixed(1)} s (${Math.round(timing.docsPerSecond)}/s)`,
    );
    return timing;
  };
  // A freshly started Elasticsearch indexes at about half speed until its JIT has compiled the indexing path
  // (docs/performance.md, "Method"). Timed then, a load measures the JVM's warm-up, not the pipeline. So the own
  // load runs untimed until two in a row agree within WARMED_WITHIN (at most WARMUP_LOADS).
  const warmup: number[] = [];
  // A quick run only shows the loads work: one warm-up load is enough for that.
  const warmupLoads = settings.quick ? 1 : WARMUP_LOADS;
  while (warmup.length < warmupLoads) {
    warmup.push((await load(OWN_MAPPING)).seconds);
    const [before, last] = warmup.slice(-2);
    if (before !== undefined && last !== undefined && Math.abs(last - before) <= WARMED_WITHIN * before)
      break;
  }
  const plainBulk = await load(PLAIN_MAPPING);
  const families: FamilyCost[] = [];
  if (settings.mappingCost) {
    // Each family against an own load run next to it, in alternating order: the machine drifts by more over
    // the minutes of these loads than a family costs.
    for (const [index, family] of FIELD_FAMILIES.entries()) {
      const own = index % 2 === 0 ? await load(OWN_MAPPING) : undefined;
      const without = await load(withoutFamily(family));
      families.push({ family: family.family, without, own: own ?? (await load(OWN_MAPPING)) });
    }
  }
  // Operators reindex an alias that already serves a generation (all but the very first run): the timed run
  // replaces one, so it pays the comparison with it and the change log's event, as theirs does.
  log('reindex: the generation it will replace (untimed)…');
  await timeReindex(client, alias, sourcePath);
  // The own load right before and right after the indexer: its ratio compares neighbouring runs.
  const ownBefore = await load(OWN_MAPPING);
  log('reindex (the real indexer)…');
  const indexer = await timeReindex(client, alias, sourcePath, es);
  log(
    `indexer: ${indexer.docs} docs in ${indexer.seconds.toFixed(1)} s (${Math.round(indexer.docsPerSecond)}/s)`,
  );
  const ownAfter = await load(OWN_MAPPING);
  return {
    indexer,
    rawBulk: meanTiming(ownBefore, ownAfter),
    ownRuns: [ownBefore, ownAfter],
    plainBulk,
    families,
    warmup,
  };
}

/** Untimed own loads before the measured ones, until two in a row agree within this share. */
export const WARMUP_LOADS = 5;
export const WARMED_WITHIN = 0.1;

/** Two runs of the same load as one: mean wall time, and Elasticsearch's work (when both have it) averaged. */
export function meanTiming(a: IndexingTiming, b: IndexingTiming): IndexingTiming {
  const seconds = (a.seconds + b.seconds) / 2;
  const es =
    a.es && b.es
      ? (Object.fromEntries(
          Object.keys(a.es).map((key) => {
            const field = key as keyof EsLoadWork;
            return [field, (a.es![field] + b.es![field]) / 2];
          }),
        ) as unknown as EsLoadWork)
      : undefined;
  return { docs: a.docs, seconds, docsPerSecond: a.docs / seconds, ...(es ? { es } : {}) };
}
