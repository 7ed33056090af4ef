// The benchmark's data: N generated records streamed to a temp NDJSON file (memory stays flat at 1M records),
// with a seeded reservoir sample of the live records (published and active) for the request mix to draw from.
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { Random } from '../../tools/generate/random.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import type { PpaRecord } from '../../indexContract/record.js';

export interface GeneratedCorpus {
  path: string;
  records: number;
  published: number;
  live: number;
  /** Up to `sampleSize` live records, a uniform sample. */
  sample: PpaRecord[];
  seconds: number;
}

export async function generateCorpus(
  path: string,
  options: { count: number; seed: number; sampleSize: number; rewrite?: (record: PpaRecord) => PpaRecord },
): Promise<GeneratedCorpus> {
  const started = performance.now();
  const random = new Random(options.seed ^ 0x5eed);
  const sample: PpaRecord[] = [];
  let published = 0;
  let live = 0;

  function* observed(): Generator<PpaRecord> {
    for (const generated of generateRecords({ seed: options.seed, count: options.count })) {
      const record = options.rewrite ? options.rewrite(generated) : generated;
      if (record.published) {
        published++;
        if (record.active) {
          live++;
          // Algorithm R: every live record ends up in the sample with the same probability.
          if (sample.length < options.sampleSize) sample.push(record);
          else {
            const slot = random.int(0, live - 1);
            if (slot < options.sampleSize) sample[slot] = record;
          }
        }
      }
      yield record;
    }
  }

  const output = createWriteStream(path);
  const records = await writeNdjson(observed(), output);
  output.end();
  await finished(output);
  return { path, records, published, live, sample, seconds: (performance.now() - started) / 1000 };
}
