// A generation made to look like one an older release built (issue 45, "no false changes"): its documents without
// content_hash, or with a hash of another definition, and its _meta without this release's content_hash_version
// (or with another). And the change log read back as the events after a sequence, to count what a run logged.
import type { Client, estypes } from '@elastic/elasticsearch';
import { changeLogIndexName, type ChangeFields } from '../../indexContract/changeLog.js';
import { CONTENT_HASH_VERSION_FIELD } from '../../indexContract/contentHash.js';
import { readIndexMeta } from '../../indexer/elasticsearch/indexMeta.js';

export interface OlderRelease {
  /** removed: no content_hash (before hashes existed); garbage: a hash of another definition, one per document. */
  hashes: 'removed' | 'garbage' | 'kept';
  /** The content_hash_version its _meta names (absent: none, as before hashes were versioned). */
  version?: number;
}

export async function makeOlder(
  client: Client,
  index: string,
  { hashes, version }: OlderRelease,
): Promise<void> {
  if (hashes !== 'kept') await rewriteHashes(client, index, hashes);
  const { [CONTENT_HASH_VERSION_FIELD]: _current, ...meta } = (await readIndexMeta(client, index)) as Record<
    string,
    unknown
  >;
  await client.indices.putMapping({
    index,
    _meta: version === undefined ? meta : { ...meta, [CONTENT_HASH_VERSION_FIELD]: version },
  });
}

/**
 * Every document written again with its content_hash removed or replaced, a page at a time. (The test
 * distribution of Elasticsearch has no scripting modules, so no _update_by_query: each document is read and
 * indexed again whole, under its own id.)
 */
async function rewriteHashes(client: Client, index: string, hashes: 'removed' | 'garbage'): Promise<void> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<Record<string, unknown>>({
      index,
      size: 1000,
      sort: [{ slug: { order: 'asc' } }],
      ...(after ? { search_after: after } : {}),
    });
    const hits = response.hits.hits;
    if (hits.length === 0) break;
    const operations = hits.flatMap((hit) => {
      const { content_hash: _stored, ...source } = hit._source!;
      return [
        { index: { _index: index, _id: hit._id! } },
        hashes === 'removed' ? source : { ...source, content_hash: `older-${hit._id!}` },
      ];
    });
    const written = await client.bulk({ operations });
    if (written.errors) throw new Error(`could not rewrite the documents of ${index}`);
    after = hits.at(-1)!.sort;
  }
  await client.indices.refresh({ index });
}

export interface LoggedEvent {
  seq: number;
  reason: ChangeFields['reason'];
  slug: string;
}

/** The published events of the alias's change log after `afterSeq`, in order (none: the log does not exist). */
export async function eventsAfter(client: Client, alias: string, afterSeq = 0): Promise<LoggedEvent[]> {
  const index = changeLogIndexName(alias);
  if (!(await client.indices.exists({ index }))) return [];
  const response = await client.search<{ slug: string; change: ChangeFields }>({
    index,
    size: 10_000,
    query: { range: { 'change.seq': { gt: afterSeq } } },
    sort: [{ 'change.seq': { order: 'asc' } }],
    _source: ['slug', 'change'],
  });
  return response.hits.hits.map(({ _source }) => ({
    seq: _source!.change.seq,
    reason: _source!.change.reason,
    slug: _source!.slug,
  }));
}

/** The last published sequence of the alias's change log (0: none yet). */
export async function lastSeq(client: Client, alias: string): Promise<number> {
  const events = await eventsAfter(client, alias);
  return events.at(-1)?.seq ?? 0;
}
