// A list of slugs kept in a file, one JSON string a line (a slug of an invalid row may hold any character), so
// a list as long as the relation is streamed in and out and never held in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createInterface } from 'node:readline';

export async function writeSlugList(path: string, slugs: AsyncIterable<string>): Promise<void> {
  const out = createWriteStream(path, { mode: 0o600 });
  try {
    for await (const slug of slugs) if (!out.write(`${JSON.stringify(slug)}\n`)) await once(out, 'drain');
    out.end();
    await finished(out);
  } finally {
    if (!out.writableFinished) out.destroy();
  }
}

/** The slugs in the order they were written. */
export async function* readSlugList(path: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  try {
    for await (const line of lines) yield JSON.parse(line) as string;
  } finally {
    lines.close();
  }
}
