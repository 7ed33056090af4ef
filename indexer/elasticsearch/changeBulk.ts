// Applies sync's changes to the live index in one _bulk request: `index` for a published record (replacing any
// earlier version), `delete` for an unpublished or vanished one (a delete of a missing document is fine: replays
// are idempotent). Items refused with 429 are retried with backoff; any other refusal fails the run before the
// high-water mark moves, so the next run applies them again.
import type { Client, estypes } from '@elastic/elasticsearch';
import { BulkRejectedError } from '../errors.js';

export type Change = { kind: 'write'; id: string; document: object } | { kind: 'delete'; id: string };

const MAX_ATTEMPTS = 6;

export async function applyChanges(client: Client, index: string, changes: Change[]): Promise<void> {
  let pending = changes;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const operations: estypes.BulkOperationContainer[] | object[] = pending.flatMap((change) =>
      change.kind === 'write'
        ? [{ index: { _index: index, _id: change.id } }, change.document]
        : [{ delete: { _index: index, _id: change.id } }],
    );
    const response = await client.bulk({
      operations,
      filter_path: 'errors,items.*.status,items.*.error.type,items.*.error.reason',
    });
    if (!response.errors) return;
    const retry: Change[] = [];
    (response.items ?? []).forEach((item, position) => {
      const result = item.index ?? item.delete;
      if (!result || result.status < 300 || (item.delete && result.status === 404)) return;
      const change = pending[position]!;
      if (result.status === 429 && attempt < MAX_ATTEMPTS) retry.push(change);
      else {
        throw new BulkRejectedError(
          `Elasticsearch refused ${change.kind} of "${change.id}": ${result.error?.type ?? result.status} ` +
            `${result.error?.reason ?? ''}`.trim(),
        );
      }
    });
    pending = retry;
    if (pending.length) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}
