// Where the integration tests find the real services that scripts/test.sh started or found.
import { Client } from '@elastic/elasticsearch';

export { freePort, uniqueName } from '../../tools/services/net.js';

export const ES_URL = process.env.ES_URL ?? 'http://127.0.0.1:9200';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testEsClient(): Client {
  return new Client({ nodes: ES_URL.split(','), requestTimeout: 30_000 });
}

/** Deletes every index whose name starts with `prefix` (cleanup after a test that created some). */
export async function deleteIndices(client: Client, prefix: string): Promise<void> {
  const indices = await client.cat.indices({ index: `${prefix}*`, format: 'json', h: 'index' });
  const names = indices.map((row) => row.index).filter((name): name is string => Boolean(name));
  if (names.length > 0) await client.indices.delete({ index: names });
}
