// A source that cannot be opened: exit 2, said by its cause.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';
import { fileSourceError, SourceError, statSourceFile } from '../../../../indexer/sources/sourceErrors.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('indexer/sources/sourceErrors', () => {
  it('says what is wrong with a file by its errno, always a usage error', () => {
    const cases: [string, string][] = [
      ['ENOENT', 'does not exist'],
      ['EACCES', 'permission denied'],
      ['EISDIR', 'is a directory'],
      ['ENOTDIR', 'has a file where its path needs a directory'],
      ['EIO', 'cannot be read (EIO)'],
    ];
    for (const [code, said] of cases) {
      const error = fileSourceError('/x.ndjson', errno(code));
      expect(error, code).to.be.instanceOf(SourceError);
      expect(error.message, code).to.include(said);
      expect(error.exitCode).to.equal(EXIT_CODES.usage);
    }
    const already = fileSourceError('/y', errno('ENOENT'));
    expect(fileSourceError('/z', already)).to.equal(already);
  });

  it('refuses a directory given as the source', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ppa-source-'));
    try {
      const failure = await statSourceFile(directory).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(SourceError);
      expect((failure as SourceError).message).to.include('is a directory');
      expect(
        await statSourceFile(join(directory, 'none')).catch((error: unknown) => (error as Error).message),
      ).to.include('does not exist');
    } finally {
      await rm(directory, { recursive: true });
    }
  });
});
