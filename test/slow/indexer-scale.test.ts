// 100k generated records through the real CLI as operators run it: `node bin/ppa-indexer.js reindex` over the
// compiled build (a fresh one, made for this test in a temporary directory laid out like the image, so neither
// tsx nor a stale dist/ of the checkout is what gets measured). The count is right, the summary prints docs/s,
// and the acceptance holds: the process's peak RSS (its own getrusage, in the summary) stays near or under the
// size of the source file, because nothing is held per record while loading.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import { summaryOf, type CliResult } from '../support/indexerCliProcess.js';
import { deleteIndices, ES_URL, testEsClient, uniqueName } from '../support/services.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RECORDS = 100_000;
/**
 * Memory stays flat, whatever the source's size: peak RSS at most 1.1× the source file. The bound leaves room
 * for Node 24's collector (it lets the heap grow further before a collection) and for the validation pass's
 * second thread (indexer/sources/parallelValidation.ts). An indexer that held the source in memory would need
 * several times the file (parsed records are larger than their JSON).
 */
const MAX_RSS_SHARE_OF_SOURCE = 1.1;

async function generateFile(path: string, count: number): Promise<number> {
  const output = createWriteStream(path);
  await writeNdjson(generateRecords({ seed: 424242, count }), output);
  await new Promise((resolve) => output.end(resolve));
  return (await stat(path)).size;
}

/** The image's layout (Dockerfile: dist/, mappings/, bin/, package.json, node_modules/) from a fresh build. */
function buildProductionCopy(dir: string): string {
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(root, 'tsconfig.build.json'),
      '--outDir',
      join(dir, 'dist'),
    ],
    { encoding: 'utf8' },
  );
  // What is measured is the emitted JavaScript; a type error elsewhere in the tree (tsc still emits) is for
  // `npm run typecheck` to report, not a reason to skip this measurement.
  const cli = join(dir, 'dist/indexer/cli.js');
  if (!existsSync(cli))
    throw new Error(`tsc emitted no ${cli} (exit ${tsc.status}):\n${tsc.stdout}${tsc.stderr}`);
  mkdirSync(join(dir, 'bin'));
  cpSync(join(root, 'bin/ppa-indexer.js'), join(dir, 'bin/ppa-indexer.js'));
  cpSync(join(root, 'mappings'), join(dir, 'mappings'), { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return join(dir, 'bin/ppa-indexer.js');
}

function runBin(bin: string, args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [bin, ...args], {
    // NODE_OPTIONS from the test runner (mocha's tsx loader) would not be there in production.
    env: { ...process.env, NODE_OPTIONS: '', ES_URL, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
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

  it('indexes 100k records with the compiled CLI, reports docs/s, and peak RSS stays flat (at most 1.1× the source)', async () => {
    const sourcePath = join(workDir, 'source.ndjson');
    const sourceBytes = await generateFile(sourcePath, RECORDS);
    const bin = buildProductionCopy(join(workDir, 'app'));

    const run = await runBin(bin, ['reindex', '--source', sourcePath, '--alias', alias, '--keep', '1']);
    expect(run.code, run.stderr).to.equal(0);
    const summary = summaryOf(run);

    expect(summary.read).to.equal(RECORDS);
    expect(summary.indexed).to.equal(summary.published);
    expect((await client.count({ index: alias })).count).to.equal(summary.published);
    expect(run.stderr).to.match(/\d+ docs\/s, peak RSS \d+ MB/);

    const sourceMb = sourceBytes / 1024 / 1024;
    const maxRssMb = summary.maxRssMb as number;
    console.log(
      `      ${RECORDS / 1000}k: ${summary.docsPerSecond} docs/s in ${summary.seconds}s; ` +
        `peak RSS ${maxRssMb} MB for a source of ${Math.round(sourceMb)} MB`,
    );
    expect(maxRssMb).to.be.greaterThan(0);
    expect(maxRssMb, 'peak RSS (MB)').to.be.lessThan(sourceMb * MAX_RSS_SHARE_OF_SOURCE);
  });
});
