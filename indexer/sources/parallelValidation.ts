// Pass 1 over a large NDJSON file on every processor: the file is cut into byte ranges of whole lines
// (source.ts's ndjsonRanges), this thread checks the first and a worker thread each of the others
// (validationWorker.ts), and the report is built here from all the checked items in file order, so duplicates
// across ranges, line numbers and the listed problems are exactly what a single reader would find.
// Elasticsearch sits idle during pass 1 (nothing is written before every record is checked), so a second
// processor would otherwise have nothing to do.
import { Worker } from 'node:worker_threads';
import { garbageCollectorTuned } from '../gcTuning.js';
import { readNdjsonRange, ndjsonRanges, type ByteRange } from './source.js';
import { checkItem, SourceReportBuilder, type CheckedItem, type SourceReport } from './validateSource.js';

/** A range smaller than this is not worth a thread's start (about 0.2 s of module loading). */
export const MIN_RANGE_BYTES = 8 * 1024 * 1024;
/**
 * At most four: the report is still built on this thread, item by item, which caps what more readers can gain
 * (measured on two processors only).
 */
export const MAX_READERS = 4;

/** How many readers (this thread and workers) pass 1 uses for an NDJSON file of `size` bytes. */
export function validationReaders(size: number, processors: number): number {
  return Math.max(1, Math.min(processors, MAX_READERS, Math.floor(size / MIN_RANGE_BYTES)));
}

/** What a worker is given: the file and its range, and whether to tune its garbage collector as this thread's is. */
export interface RangeJob {
  path: string;
  range: ByteRange;
  tuneGarbageCollector: boolean;
}

/**
 * What a worker sends: checked items in batches (with the bytes read so far), then its range's line count. A
 * batch travels as the JSON text of its items, so the batches of a range waiting for this thread to reach it are
 * a few flat strings, not thousands of small objects on this thread's heap.
 */
export type RangeMessage = { items: string; bytes: number } | { done: true; lines: number; bytes: number };

export interface ParallelValidationOptions {
  signal?: AbortSignal;
  onRecord?: (read: number) => void;
  /** Bytes read so far, over every range. */
  onBytes?: (bytesRead: number) => void;
}

export async function validateNdjsonFile(
  path: string,
  size: number,
  readers: number,
  options: ParallelValidationOptions = {},
): Promise<SourceReport> {
  const { signal } = options;
  const ranges = await ndjsonRanges(path, size, readers);
  const bytesOf = ranges.map(() => 0);
  const readBytes = (range: number) => (bytes: number) => {
    bytesOf[range] = bytes;
    options.onBytes?.(bytesOf.reduce((sum, each) => sum + each, 0));
  };
  const workers = ranges
    .slice(1)
    .map(
      (range, i) =>
        new RangeWorker({ path, range, tuneGarbageCollector: garbageCollectorTuned() }, readBytes(i + 1)),
    );
  const stop = () => void Promise.all(workers.map((worker) => worker.stop()));
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const builder = new SourceReportBuilder('ndjson');
    const first = { lines: 0 };
    const reading = { onBytes: readBytes(0), ...(signal ? { signal } : {}) };
    for await (const item of readNdjsonRange(path, ranges[0]!, first, reading)) {
      builder.add(checkItem(item));
      options.onRecord?.(builder.report.read);
    }
    let lineOffset = first.lines;
    for (const worker of workers) {
      for await (const items of worker.batches()) {
        for (const item of items) {
          builder.add(item, lineOffset);
          options.onRecord?.(builder.report.read);
        }
        // A batch is taken in one go, and a worker that has finished is not stopped by the abort.
        if (signal?.aborted) throw abortError();
      }
      lineOffset += worker.lines;
    }
    if (signal?.aborted) throw abortError();
    return builder.report;
  } finally {
    signal?.removeEventListener('abort', stop);
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

function abortError(): DOMException {
  return new DOMException('the validation was stopped', 'AbortError');
}

/** One worker thread checking one range; its batches are kept until this thread reaches its range. */
class RangeWorker {
  lines = 0;
  private readonly worker: Worker;
  private readonly queue: string[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(job: RangeJob, onBytes: (bytes: number) => void) {
    this.worker = startWorker(job);
    this.worker.on('message', (message: RangeMessage) => {
      if ('done' in message) {
        this.lines = message.lines;
        this.finished = true;
      } else this.queue.push(message.items);
      onBytes(message.bytes);
      this.notify();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.finished)
        this.fail(new Error(`a validation worker stopped (exit code ${code}) before its range's end`));
    });
  }

  async *batches(): AsyncGenerator<CheckedItem[]> {
    for (;;) {
      const items = this.queue.shift();
      if (items !== undefined) yield JSON.parse(items) as CheckedItem[];
      else if (this.failure) throw this.failure;
      else if (this.finished) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  async stop(): Promise<void> {
    if (!this.finished) this.fail(abortError());
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * Compiled, the worker is the .js beside this file. Under tsx (tests, `npx tsx indexer/cli.ts`) it is the .ts,
 * which a worker thread can load only once tsx's hooks are registered in it: a worker does not inherit them.
 */
function startWorker(job: RangeJob): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(`./validationWorker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  if (!typescript) return new Worker(entry, { workerData: job });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: job });
}
