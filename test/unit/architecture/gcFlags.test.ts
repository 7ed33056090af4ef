// The V8 flags the API (src/server.ts) and the indexer (indexer/gcTuning.ts) set at start with
// v8.setFlagsFromString: that call ignores a flag V8 does not know, so a Node upgrade that drops one would turn the
// tuning off without a word. On the command line an unknown flag stops node (exit 9): each flag is tried there,
// on the node running the tests (CI runs them on the machine's Node and on Node 24).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function flagsSetIn(file: string): string[] {
  const text = readFileSync(`${root}${file}`, 'utf8');
  return [...text.matchAll(/setFlagsFromString\(\s*'([^']+)'\s*\)/g)].map((match) => match[1] ?? '');
}

describe(`GC flags: every flag set at start is known to this node (${process.version})`, () => {
  for (const file of ['src/server.ts', 'indexer/gcTuning.ts']) {
    it(`${file}`, () => {
      const flags = flagsSetIn(file);
      expect(flags, `setFlagsFromString calls in ${file}`).to.have.length.above(0);
      for (const flag of flags) expect(flag).to.match(/^--[a-z-]+=\d+$/);
      const result = spawnSync(process.execPath, [...flags, '-e', '0'], { encoding: 'utf8' });
      expect(result.status, `node ${flags.join(' ')}: ${result.stderr}`).to.equal(0);
    });
  }
});
