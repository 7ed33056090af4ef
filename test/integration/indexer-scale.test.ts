// 100k generated records through the real CLI: the count is right, the summary prints docs/s, and memory stays
// flat (5x the source costs almost no extra memory: nothing is held per record while loading).
import { expect } from 'chai';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecords } from '../../indexer/generate/generateRecords.js';
import { writeNdjson } from '../../indexer/generate/writeNdjson.js';
import { runCli, summaryOf } from './indexerCliProcess.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

async function generateFile(path: string, count: number): Promise<number> {
  const output = createWriteStream(path);
  await writeNdjson(generateRecords({ seed: 424242, count }), output);
  await new Promise((resolve) => output.end(resolve));
  return (await stat(path)).size;
}

describe('indexer: 100k records at scale', function () {
  this.timeout(240_000);
  const client = testEsClient();
  const alias = uniqueName('idx-scale');
  let workDir: string;

  before(async () => (workDir = await mkdtemp(join(tmpdir(), 'indexer-scale-'))));
  after(async () => {
    await deleteIndices(client, alias);
    await rm(workDir, { recursive: true, force: true });
    await client.close();
  });

  it('indexes 100k records, reports docs/s, and peak RSS does not grow with the source', async () => {
    const smallPath = join(workDir, 'small.ndjson');
    const largePath = join(workDir, 'large.ndjson');
    const smallBytes = await generateFile(smallPath, 20_000);
    const largeBytes = await generateFile(largePath, 100_000);

    const small = summaryOf(
      await runCli(['reindex', '--source', smallPath, '--alias', alias, '--keep', '1']),
    );
    const largeRun = await runCli(['reindex', '--source', largePath, '--alias', alias, '--keep', '1']);
    expect(largeRun.code, largeRun.stderr).to.equal(0);
    const large = summaryOf(largeRun);

    expect(large.read).to.equal(100_000);
    expect(large.indexed).to.equal(large.published);
    expect((await client.count({ index: alias })).count).to.equal(large.published);
    expect(largeRun.stderr).to.match(/\d+ docs\/s, peak RSS \d+ MB/);

    const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);
    const growthMb = (large.maxRssMb as number) - (small.maxRssMb as number);
    console.log(
      `      100k: ${large.docsPerSecond} docs/s in ${large.seconds}s; peak RSS ${large.maxRssMb} MB ` +
        `(20k: ${small.maxRssMb} MB) for sources of ${mb(largeBytes)} MB (20k: ${mb(smallBytes)} MB)`,
    );
    // Holding records or documents would cost at least the extra source size; allow half of it (duplicate-detection keys and GC timing noise).
    expect(growthMb).to.be.lessThan(mb(largeBytes - smallBytes) / 2);
    expect(large.seconds).to.be.lessThan(120);
  });
});
