// The two sides of a swap compared (generationDiff.ts's merge): the outgoing generation always read from
// Elasticsearch, the incoming one either read too (a rollback; a reindex whose catch-up changed the new index
// after the build) or taken from what the reindex noted as it wrote it (builtEntries.ts), for half the work.
import type { Client } from '@elastic/elasticsearch';
import { servedEntries } from '../elasticsearch/servedEntries.js';
import type { BuiltEntries } from './builtEntries.js';
import { diffServed, type GenerationDiff } from './generationDiff.js';

/**
 * Two generations of one alias compared, both walked in step (each walk asks for its next page while the merge
 * consumes this one), cut at `bounds` (from slugBounds, or a build's noted slugs).
 */
export function compareGenerations(
  client: Client,
  outgoing: string,
  incoming: string,
  unpublished: ReadonlySet<string> = new Set(),
  bounds: readonly string[] = [],
): Promise<GenerationDiff> {
  return diffServed(
    servedEntries(client, outgoing, { bounds }),
    servedEntries(client, incoming, { bounds }),
    unpublished,
  );
}

/** The outgoing generation (read from Elasticsearch) compared with what the reindex just wrote (noted as it wrote it). */
export function compareWithBuilt(
  client: Client,
  outgoing: string,
  built: BuiltEntries,
  unpublished: ReadonlySet<string> = new Set(),
): Promise<GenerationDiff> {
  return diffServed(
    servedEntries(client, outgoing, { bounds: built.bounds() }),
    built.inByteOrder(),
    unpublished,
  );
}
