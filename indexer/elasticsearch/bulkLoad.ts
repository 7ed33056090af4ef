// Sends documents to one index in bulk batches, a few requests in flight. Items refused with 429 (queue full)
// are retried with exponential backoff; any other refusal, or a 429 that outlives the retries, fails the load.
//
// Memory: each document is serialised once, straight into the UTF-8 NDJSON body of its batch (a Buffer
// outside the JS heap, reused from batch to batch), so no per-document string outlives the moment it is
// written, and neither the client's joined NDJSON string (two bytes a character once the text holds one
// non-Latin-1 character) nor a copy of it is ever made. Responses are filtered down to what is read.
import type { Client } from '@elastic/elasticsearch';
import { BulkRejectedError, InterruptedError, throwIfAborted } from '../errors.js';

export interface BulkLoadOptions {
  batchSize?: number;
  /** A batch is sent once its body reaches this many bytes, even short of batchSize documents. */
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

/** Just what sendBatch reads of a bulk response (the request's filter_path asks for nothing else). */
interface FilteredBulkResponse {
  errors: boolean;
  items?: Partial<
    Record<'create' | 'index', { status: number; error?: { type: string; reason?: string | null } }>
  >[];
}

const FILTER_PATH = 'errors,items.*.status,items.*.error.type,items.*.error.reason';
// The most UTF-8 bytes one UTF-16 code unit can take: what a string of n units may need, before measuring it.
const MAX_UTF8_BYTES_PER_UNIT = 3;
const INITIAL_CAPACITY = 1024 * 1024;

/**
 * One batch's NDJSON body: a `create` action line and a source line per document, written as UTF-8 into a
 * Buffer that grows by doubling and is reused for later batches once its request has finished. Nothing per
 * document is kept on the JS heap (a document's id is read back from its action line if it is refused).
 */
class BulkBatch {
  private buffer = Buffer.allocUnsafe(INITIAL_CAPACITY);
  /** Where each document's two lines end in the body (document i spans ends[i-1] to ends[i]). */
  private ends = new Float64Array(1024);
  /** Bytes written so far. */
  length = 0;
  /** Documents written so far. */
  size = 0;

  add(id: string, source: string): void {
    // `create`, not `index`: a second document with the same slug is an error, never a silent overwrite.
    // The index is in the request path, so the action names only the id.
    this.writeLine(`{"create":{"_id":${JSON.stringify(id)}}}`);
    this.writeLine(source);
    if (this.size === this.ends.length) {
      const grown = new Float64Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.size++] = this.length;
  }

  /** The body to send: a view of the bytes written (valid until the batch is reset). */
  body(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** The body of only some documents (the ones to retry), as a new Buffer. */
  bodyOf(positions: number[]): Buffer {
    return Buffer.concat(
      positions.map((position) => this.buffer.subarray(this.start(position), this.ends[position])),
    );
  }

  /** The id of a document, from its action line. */
  idAt(position: number): string {
    const start = this.start(position);
    const action = this.buffer.toString('utf8', start, this.buffer.indexOf(0x0a, start));
    return (JSON.parse(action) as { create: { _id: string } }).create._id;
  }

  reset(): void {
    this.length = 0;
    this.size = 0;
  }

  private start(position: number): number {
    return position === 0 ? 0 : this.ends[position - 1]!;
  }

  private writeLine(text: string): void {
    const worstCase = text.length * MAX_UTF8_BYTES_PER_UNIT + 1;
    if (this.length + worstCase > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + worstCase));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
    this.buffer[this.length++] = 0x0a; // \n
  }
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

export async function bulkLoad(
  client: Client,
  index: string,
  documents: AsyncIterable<LoadableDocument>,
  options: BulkLoadOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatchBytes = options.maxBatchBytes ?? 5 * 1024 * 1024;
  const concurrency = options.concurrency ?? 2;
  let indexed = 0;
  // Batches whose requests have finished, ready to be filled again: at most concurrency + 1 buffers ever exist.
  const spare: BulkBatch[] = [];
  let batch = new BulkBatch();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;

  const send = (full: BulkBatch): void => {
    const request = sendBatch(client, index, full, options)
      .then((count) => {
        indexed += count;
        options.onBatch?.(indexed);
        full.reset();
        spare.push(full);
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  const flush = async (): Promise<void> => {
    if (batch.size === 0) return;
    throwIfAborted(options.signal);
    options.checkpoint?.();
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (failure) throw failure;
    send(batch);
    batch = spare.pop() ?? new BulkBatch();
  };

  try {
    for await (const document of documents) {
      if (failure) throw failure;
      batch.add(document.id, JSON.stringify(document.body));
      if (batch.size >= batchSize || batch.length >= maxBatchBytes) await flush();
    }
    await flush();
  } finally {
    // Never leave requests running behind a failed load (the caller deletes the index next).
    await Promise.all(inFlight);
  }
  if (failure) throw failure;
  return indexed;
}

async function sendBatch(
  client: Client,
  index: string,
  batch: BulkBatch,
  options: BulkLoadOptions,
): Promise<number> {
  const maxRetries = options.maxRetries ?? 6;
  const retryBaseMs = options.retryBaseMs ?? 250;
  // Positions (in the batch) of the documents still to send, and their body.
  let pending: number[] | null = null;
  let body = batch.body();
  for (let attempt = 0; ; attempt++) {
    let response: FilteredBulkResponse;
    try {
      // The client's bulk() takes only an array of operations, which it would serialise again; the transport
      // takes the ready body as it is (and still retries connection failures, picks nodes, authenticates).
      response = await client.transport.request<FilteredBulkResponse>(
        {
          method: 'POST',
          path: `/${encodeURIComponent(index)}/_bulk`,
          querystring: { refresh: 'false', filter_path: FILTER_PATH },
          bulkBody: body,
          meta: { name: 'bulk', pathParts: { index } },
        },
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      throwIfAborted(options.signal);
      const status = (error as { meta?: { statusCode?: number } }).meta?.statusCode;
      if (status !== 429 || attempt >= maxRetries) throw error;
      await sleep(retryBaseMs * 2 ** attempt, options.signal);
      continue;
    }
    if (!response.errors) return batch.size;

    const retry: number[] = [];
    (response.items ?? []).forEach((item, offset) => {
      const result = item.create ?? item.index;
      if (!result?.error) return;
      const position = pending ? pending[offset]! : offset;
      if (result.status === 429 && attempt < maxRetries) retry.push(position);
      else {
        throw new BulkRejectedError(
          `Elasticsearch refused document ${batch.idAt(position)} (status ${result.status}): ` +
            `${result.error.type}: ${result.error.reason ?? ''}`,
        );
      }
    });
    if (retry.length === 0) return batch.size;
    pending = retry;
    body = batch.bodyOf(retry);
    await sleep(retryBaseMs * 2 ** attempt, options.signal);
  }
}
