// stdin (or any stream) can be read only once, but a reindex reads its source twice (validate, then load):
// copy it to a private temporary file first.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface SpooledFile {
  path: string;
  remove: () => Promise<void>;
}

export async function spoolToTempFile(input: Readable, signal?: AbortSignal): Promise<SpooledFile> {
  const directory = await mkdtemp(join(tmpdir(), 'ppa-indexer-'));
  const path = join(directory, 'source');
  const remove = (): Promise<void> => rm(directory, { recursive: true, force: true });
  try {
    await pipeline(input, createWriteStream(path, { mode: 0o600 }), signal ? { signal } : {});
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, remove };
}
