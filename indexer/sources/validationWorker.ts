// A worker thread of parallelValidation.ts: pass 1's per-record checks over one byte range of an NDJSON file,
// sent back in batches; the checks across records are left to the thread that builds the report.
import { parentPort, workerData } from 'node:worker_threads';
import { tuneGarbageCollector } from '../gcTuning.js';
import type { RangeJob, RangeMessage } from './parallelValidation.js';
import { readNdjsonRange } from './source.js';
import { checkItem, type CheckedItem } from './validateSource.js';

const BATCH = 2000;
const { path, range, tuneGarbageCollector: tune } = workerData as RangeJob;
if (tune) tuneGarbageCollector();
const send = (message: RangeMessage) => parentPort!.postMessage(message);

/** Checks the range's records and sends them in batches, then the count of lines and bytes read. */
async function validateRange(): Promise<void> {
  const count = { lines: 0 };
  let bytes = 0;
  let items: CheckedItem[] = [];
  for await (const item of readNdjsonRange(path, range, count, { onBytes: (read) => (bytes = read) })) {
    items.push(checkItem(item));
    if (items.length === BATCH) {
      send({ items: JSON.stringify(items), bytes });
      items = [];
    }
  }
  send({ items: JSON.stringify(items), bytes });
  send({ done: true, lines: count.lines, bytes });
}

await validateRange();
