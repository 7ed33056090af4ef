// The new index checked before it may go live (phases 3 and 4 of a reindex): it holds exactly what was validated,
// durably, and it is green with the replicas the cluster can hold.
import type { GenerationBuild } from './reindexRun.js';
import { LIVE_SETTINGS, replicasFor } from '../elasticsearch/indexMapping.js';

/** Phase 3: the source is what was validated, the index is durable and holds exactly the published records. */
export async function verifyPhase(build: GenerationBuild, indexed: number): Promise<void> {
  const { client, source, report, index, logger } = build;
  await source.assertUnchanged();
  const started = performance.now();
  await client.indices.putSettings({ index, settings: { index: LIVE_SETTINGS } });
  await client.indices.refresh({ index });
  const refreshed = performance.now();
  // A Lucene commit of everything loaded: what the async translog held would otherwise die with a killed node.
  // The first flush also persists the global checkpoint that the loading (async translog) left behind; only the
  // second, forced, commit is then a safe one, so the translog is trimmed and a replica copies files instead of
  // replaying every operation, which takes far longer.
  await client.indices.flush({ index, wait_if_ongoing: true });
  await client.indices.flush({ index, wait_if_ongoing: true, force: true });
  const seconds = (from: number, to: number) => Math.round(to - from) / 1000;
  logger.info(
    {
      index,
      refreshSeconds: seconds(started, refreshed),
      flushSeconds: seconds(refreshed, performance.now()),
    },
    'new index refreshed and flushed',
  );
  const { count } = await client.count({ index });
  const expected = report.published;
  if (count !== expected || indexed !== expected) {
    throw new Error(
      `index check failed: ${index} holds ${count} documents (${indexed} sent), expected ${expected} published records`,
    );
  }
}

export const DEFAULT_GREEN_TIMEOUT_MS = 300_000;

/**
 * Phase 4: the replicas the cluster can hold, copied before the swap: the index goes live green, so the loss of
 * any one node (with a replica) loses no document and answers no 503. A cluster that cannot get there within the
 * bound fails the run, and the alias stays where it was.
 */
export async function goLivePhase(build: GenerationBuild): Promise<void> {
  const { client, index, options, logger } = build;
  const started = performance.now();
  let replicas = options.replicas;
  if (replicas === undefined) {
    const { number_of_data_nodes: dataNodes } = await client.cluster.health({ index });
    replicas = replicasFor(dataNodes);
  }
  if (replicas > 0) {
    await client.indices.putSettings({ index, settings: { index: { number_of_replicas: replicas } } });
  }
  const timeoutMs = options.greenTimeoutMs ?? DEFAULT_GREEN_TIMEOUT_MS;
  const health = await client.cluster.health(
    { index, wait_for_status: 'green', timeout: `${Math.ceil(timeoutMs / 1000)}s` },
    // Elasticsearch answers 408 with timed_out when the bound passes: reported below, not thrown as a response error.
    { requestTimeout: timeoutMs + 30_000, ignore: [408] },
  );
  if (health.timed_out || health.status !== 'green') {
    throw new Error(
      `index check failed: ${index} did not turn green within ${Math.ceil(timeoutMs / 1000)}s with ` +
        `${replicas} replica(s) (status ${health.status}, ${health.unassigned_shards} unassigned and ` +
        `${health.initializing_shards} initializing shard(s), ${health.number_of_data_nodes} data node(s))`,
    );
  }
  logger.info(
    { index, replicas, seconds: Math.round(performance.now() - started) / 1000 },
    'new index replicated and green',
  );
}
