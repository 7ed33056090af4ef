// sources/spool: a stream (stdin) copied to a private temporary file so a reindex can read it twice. Checked in a
// temporary directory of the test's own (TMPDIR): the copy is whole and readable by its owner only, removing it
// leaves nothing, and a stream that fails or a run aborted while copying leave nothing behind either.
import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { spoolToTempFile } from '../../../../indexer/sources/spool.js';

describe('indexer/sources/spool', () => {
  let dir: string;
  const tmpdirBefore = process.env.TMPDIR;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'indexer-spool-test-'));
    process.env.TMPDIR = dir; // os.tmpdir() reads it on each call
  });
  afterEach(async () => {
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
    await rm(dir, { recursive: true, force: true });
  });

  it('copies the whole stream to a file only its owner can read, and removes it on request', async () => {
    const text = `${'{"slug":"a"}\n'.repeat(10_000)}{"slug":"é"}\n`;
    const spooled = await spoolToTempFile(
      Readable.from([Buffer.from(text.slice(0, 7)), Buffer.from(text.slice(7))]),
    );
    expect(spooled.path.startsWith(join(dir, 'ppa-indexer-'))).to.equal(true);
    expect(await readFile(spooled.path, 'utf8')).to.equal(text);
    expect((await stat(spooled.path)).mode & 0o777).to.equal(0o600);
    await spooled.remove();
    expect(await readdir(dir)).to.deep.equal([]);
  });

  it('leaves nothing behind when the stream fails while it is copied', async () => {
    async function* failing() {
      yield Buffer.from('{"slug":"a"}\n');
      throw new Error('stdin broke');
    }
    let error: unknown;
    await spoolToTempFile(Readable.from(failing())).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.include('stdin broke');
    expect(await readdir(dir)).to.deep.equal([]);
  });

  it('stops copying when the run is aborted, and leaves nothing behind', async () => {
    const controller = new AbortController();
    const endless = new Readable({ read() {} });
    endless.push('{"slug":"a"}\n');
    const spooling = spoolToTempFile(endless, controller.signal);
    controller.abort();
    let error: unknown;
    await spooling.catch((caught: unknown) => (error = caught));
    expect((error as Error).name).to.equal('AbortError');
    expect(await readdir(dir)).to.deep.equal([]);
  });
});
