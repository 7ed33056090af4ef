// A steady trickle of changes in place, as `sync --follow` makes them: every `everyMs`, one document of the live
// index gets a new capacity, then the run is recorded as sync records it (refresh, data version moved on), so
// every API instance's response cache drops what it held. For the Zipf mix's cost of freshness (`--trickle`).
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { recordSyncRun } from '../../indexer/elasticsearch/indexMeta.js';

export interface Trickle {
  /** Stops after the change under way; resolves to the number of changes made. */
  stop(): Promise<number>;
}

export async function startTrickle(client: Client, alias: string, everyMs: number): Promise<Trickle> {
  const index = await aliasTarget(client, alias);
  if (!index) throw new Error(`alias ${alias} does not exist`);
  const { hits } = await client.search({ index, size: 100, _source: false, sort: ['slug'] });
  const ids = hits.hits.map((hit) => hit._id!);
  let changes = 0;
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyMs);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopped) break;
      const id = ids[changes % ids.length]!;
      await client.update({ index, id, doc: { capacity_mw: 1 + (changes % 997) } });
      await recordSyncRun(client, index, { changed: true });
      changes += 1;
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake();
      await loop;
      return changes;
    },
  };
}
