// A mocha root hook plugin (`--require test/support/fileTimes.ts`) that records how long each test file took, so
// that scripts/test.sh can name the slowest files at the end of the run: the integration stage is most of
// `npm test`'s time, and the files that cost most are the ones worth making cheaper.
//
// The top-level suites of the root suite run one after another (with `--parallel` the root suite of a worker holds
// one file's suites), so a suite's time is from the end of the previous one (or the root's start) to its own end,
// its hooks included; a file's time is the sum of its top-level suites'. It writes nothing unless
// TEST_FILE_TIMES_DIR names a directory: a line `<milliseconds>\t<file>` per file, in a file per process.
import { appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Context } from 'mocha';

let lastMark = 0;
const perFile = new Map<string, number>();

export const mochaHooks = {
  beforeAll(this: Context): void {
    lastMark = performance.now();
    for (const suite of this.test?.parent?.suites ?? []) {
      // Appended after the suite's own `after` hooks: it runs when the suite is done.
      suite.afterAll('fileTimes: the suite is done', () => {
        const now = performance.now();
        if (suite.file) perFile.set(suite.file, (perFile.get(suite.file) ?? 0) + now - lastMark);
        lastMark = now;
      });
    }
  },
  afterAll(): void {
    const dir = process.env.TEST_FILE_TIMES_DIR;
    if (!dir) return;
    const lines = [...perFile].map(([file, ms]) => `${Math.round(ms)}\t${relative(process.cwd(), file)}\n`);
    // One file per worker process: two workers never append to the same file.
    appendFileSync(join(dir, `times-${process.pid}.tsv`), lines.join(''));
    perFile.clear();
  },
};
