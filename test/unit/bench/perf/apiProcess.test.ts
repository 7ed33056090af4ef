import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestProfile } from '../../../../bench/perf/apiProcess.js';

describe('bench/perf/apiProcess', () => {
  describe('newestProfile', () => {
    let directory: string;
    beforeEach(async () => {
      directory = await mkdtemp(join(tmpdir(), 'profiles-'));
    });
    afterEach(async () => {
      await rm(directory, { recursive: true, force: true });
    });
    const written = (...names: string[]) =>
      Promise.all(names.map((name) => writeFile(join(directory, name), '{}')));

    it("takes the main thread's newest profile, not the module loader thread's that sorts after it", async () => {
      await written(
        'CPU.20261206.080727.24848.0.001.cpuprofile',
        'CPU.20261206.080728.24848.1.002.cpuprofile',
        'CPU.20261206.080731.24900.0.003.cpuprofile',
        'notes.txt',
      );
      expect(await newestProfile(directory)).to.equal(
        join(directory, 'CPU.20261206.080731.24900.0.003.cpuprofile'),
      );
    });

    it('is undefined when the main thread wrote none', async () => {
      await written('CPU.20261206.080728.24848.1.002.cpuprofile');
      expect(await newestProfile(directory)).to.equal(undefined);
    });
  });
});
