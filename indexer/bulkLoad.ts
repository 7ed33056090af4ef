// Sends documents to one index in bulk batches, a few requests in flight. Items refused with 429 (queue full)
// are retried with exponential backoff; any other refusal, or a 429 that outlives the retries, fails the load.
import type { Client, estypes } from '@elastic/elasticsearch';
import { BulkRejectedError, InterruptedError } from './errors.js';

export interface BulkLoadOptions {
  batchSize?: number;
  maxBatchBytes?: number;
  /** Bulk requests in flight at once: 2 lets this process prepare a batch while Elasticsearch indexes one. */
  concurrency?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  signal?: AbortSignal;
  onBatch?: (indexedSoFar: number) => void;
  /** Called before each batch (the lock's assertHeld): throwing stops the load. */
  checkpoint?: () => void;
}

export interface LoadableDocument {
  id: string;
  body: object;
}

/** A document serialised once: its bulk action line and its source line. */
interface BulkPair {
  id: string;
  action: string;
  source: string;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError(String(signal?.reason)));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError(String(signal.reason));
}

export async function bulkLoad(
  client: Client,
  index: string,
  documents: AsyncIterable<LoadableDocument>,
  options: BulkLoadOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatchBytes = options.maxBatchBytes ?? 8 * 1024 * 1024;
  const concurrency = options.concurrency ?? 2;
  let indexed = 0;
  let batch: BulkPair[] = [];
  let batchBytes = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;

  const send = (pairs: BulkPair[]): void => {
    const request = sendBatch(client, pairs, options)
      .then((count) => {
        indexed += count;
        options.onBatch?.(indexed);
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    throwIfAborted(options.signal);
    options.checkpoint?.();
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (failure) throw failure;
    send(batch);
    batch = [];
    batchBytes = 0;
  };

  try {
    for await (const document of documents) {
      if (failure) throw failure;
      const pair: BulkPair = {
        id: document.id,
        action: JSON.stringify({ create: { _index: index, _id: document.id } }),
        source: JSON.stringify(document.body),
      };
      batch.push(pair);
      batchBytes += pair.action.length + pair.source.length + 2;
      if (batch.length >= batchSize || batchBytes >= maxBatchBytes) await flush();
    }
    await flush();
  } finally {
    // Never leave requests running behind a failed load (the caller deletes the index next).
    await Promise.all(inFlight);
  }
  if (failure) throw failure;
  return indexed;
}

async function sendBatch(client: Client, batch: BulkPair[], options: BulkLoadOptions): Promise<number> {
  const maxRetries = options.maxRetries ?? 6;
  const retryBaseMs = options.retryBaseMs ?? 250;
  let pending = batch;
  for (let attempt = 0; ; attempt++) {
    // `create`, not `index`: a second document with the same slug is an error, never a silent overwrite.
    const operations = pending.flatMap((pair) => [pair.action, pair.source]);
    let response: estypes.BulkResponse;
    try {
      response = await client.bulk(
        { operations, refresh: false },
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      throwIfAborted(options.signal);
      const status = (error as { meta?: { statusCode?: number } }).meta?.statusCode;
      if (status !== 429 || attempt >= maxRetries) throw error;
      await sleep(retryBaseMs * 2 ** attempt, options.signal);
      continue;
    }
    if (!response.errors) return batch.length;

    const retry: BulkPair[] = [];
    response.items.forEach((item, position) => {
      const result = item.create ?? item.index;
      if (!result?.error) return;
      const pair = pending[position]!;
      if (result.status === 429 && attempt < maxRetries) retry.push(pair);
      else {
        throw new BulkRejectedError(
          `Elasticsearch refused document ${pair.id} (status ${result.status}): ` +
            `${result.error.type}: ${result.error.reason ?? ''}`,
        );
      }
    });
    if (retry.length === 0) return batch.length;
    pending = retry;
    await sleep(retryBaseMs * 2 ** attempt, options.signal);
  }
}
