// Streams records as NDJSON with backpressure, in chunks so 1M records write in seconds.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { PpaRecord } from '../../indexContract/record.js';

const LINES_PER_CHUNK = 500;

export async function writeNdjson(records: Iterable<PpaRecord>, output: Writable): Promise<number> {
  let written = 0;
  let chunk: string[] = [];
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const ok = output.write(chunk.join(''));
    chunk = [];
    if (!ok) await once(output, 'drain');
  };
  for (const record of records) {
    chunk.push(`${JSON.stringify(record)}\n`);
    written++;
    if (chunk.length >= LINES_PER_CHUNK) await flush();
  }
  await flush();
  return written;
}
