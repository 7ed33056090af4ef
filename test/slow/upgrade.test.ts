// An upgrade as operators make one, against the previous release (the newest in CHANGELOG.md older than
// package.json's version): its indexer builds the index, then this release's API serves it and judges it by its
// index contract version (a reindex recommended when it is older), this release's reindex over it from the same source logs no change, a rollback onto it serves, and
// the previous release's API serves this release's index. The previous release is exported once from git
// (`git archive`) into a cache beside Elasticsearch's and run from source with this checkout's node_modules (a
// release adds dependencies, it does not change the ones an older one uses).
import { expect } from 'chai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INDEX_CONTRACT_VERSION, RELEASE } from '../../indexContract/contract.js';
import { rollback } from '../../indexer/reindex/rollback.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, ES_URL, freePort, testEsClient, uniqueName } from '../support/services.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `1.2.3` → comparable numbers. */
const versionOf = (version: string) => version.replace(/^v/, '').split('.').map(Number);
const older = (a: number[], b: number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

const git = (args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

interface PreviousRelease {
  version: string;
  commit: string;
  /** The index contract version it declares (and records in the generations it builds), if any. */
  contract: number | undefined;
}

/**
 * The newest release older than this one, from CHANGELOG.md's headings, and the commit that is it: its tag when
 * the clone has tags, else the `Commit:` line the changelog records under it (a CI clone of one branch comes
 * without tags). Checked: the commit is in this clone and its package.json names that version.
 */
function previousRelease(changelog: string): PreviousRelease {
  const releases = [
    ...changelog.matchAll(/^## (\d+\.\d+\.\d+) - [^\n]*\n(?:\s*\nCommit: ([0-9a-f]{40})\b)?/gm),
  ].map(([, version, commit]) => ({ version: version!, commit: commit ?? '' }));
  const current = versionOf(RELEASE);
  const candidates = releases.filter((release) => older(versionOf(release.version), current));
  candidates.sort((a, b) => (older(versionOf(a.version), versionOf(b.version)) ? 1 : -1));
  const release = candidates[0];
  if (!release) throw new Error(`CHANGELOG.md names no release older than ${RELEASE}`);
  let commit = '';
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `refs/tags/v${release.version}^{commit}`]).trim();
  } catch {
    commit = release.commit;
  }
  if (!commit)
    throw new Error(
      `no tag v${release.version} and no "Commit:" line under ${release.version} in CHANGELOG.md`,
    );
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new Error(
      `release ${release.version}: commit ${commit} is not in this clone (a shallow clone? git fetch --unshallow)`,
    );
  }
  const recorded = (JSON.parse(git(['show', `${commit}:package.json`])) as { version: string }).version;
  if (recorded !== release.version) {
    throw new Error(`release ${release.version}: commit ${commit}'s package.json says ${recorded}`);
  }
  return { version: release.version, commit, contract: contractVersionAt(commit) };
}

/** The index contract version a commit's source declares; undefined before there was one (0.1.0). */
function contractVersionAt(commit: string): number | undefined {
  let source = '';
  try {
    source = git(['show', `${commit}:indexContract/contract.ts`]);
  } catch {
    return undefined;
  }
  const declared = /\bINDEX_CONTRACT_VERSION = (\d+)/.exec(source)?.[1];
  return declared === undefined ? undefined : Number(declared);
}

/** The release's tree, exported once into the cache; node_modules is this checkout's. */
function exportRelease(release: { version: string; commit: string }): string {
  const cache =
    process.getuid?.() === 0
      ? '/var/cache/ppa-search/releases'
      : join(homedir(), '.cache/ppa-search/releases');
  const dir = join(cache, `v${release.version}`);
  const stamp = `${release.commit}\n`;
  if (!existsSync(join(dir, '.exported')) || readFileSync(join(dir, '.exported'), 'utf8') !== stamp) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', '--format=tar', release.commit], {
      cwd: ROOT,
      maxBuffer: 1 << 28,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    writeFileSync(join(dir, '.exported'), stamp);
  }
  rmSync(join(dir, 'node_modules'), { force: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function run(
  dir: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, out: out.join('') }));
}

describe('upgrade: from the previous release to this one and back', function () {
  this.timeout(300_000);
  const client = testEsClient();
  const alias = uniqueName('upgrade');
  let tag = '';
  let previous: PreviousRelease;
  let releaseDir = '';
  let previousIndex = '';
  /** The PPAs this release's generation flags: each changes once between a release before the flags and this one. */
  let flagChanges = 0;
  let api: TestApp | undefined;

  before(async () => {
    previous = previousRelease(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    tag = `v${previous.version}`;
    releaseDir = exportRelease(previous);
    const built = await run(releaseDir, ['indexer/cli.ts', 'reindex', '--source', SAMPLE_PATH], {
      ES_URL,
      ES_INDEX: alias,
    });
    expect(built.code, `the ${tag} indexer:\n${built.out}`).to.equal(0);
    const aliases = await client.indices.getAlias({ name: alias });
    previousIndex = Object.keys(aliases)[0] ?? '';
    expect(previousIndex, `${tag} built a generation`).to.not.equal('');
  });

  after(async () => {
    await api?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  it(`this release's API answers the contract over the previous release's index, and judges it by its contract version`, async () => {
    api = await buildTestApp({ alias });
    const list = await fetch(`${api.url}/api/v1/ppas?q=solar&per_page=5&facets=technology`);
    const listBody = (await list.json()) as { data: { slug: string }[]; meta: { total: number } };
    assertMatchesOpenApi('/api/v1/ppas', list.status, listBody);
    expect(list.status).to.equal(200);
    expect(listBody.meta.total).to.be.above(0);
    const slug = listBody.data[0]!.slug;
    for (const path of [`/api/v1/ppas/${slug}`, '/api/v1/ppas/statistics', '/api/v1/ppas/suggest?q=sol']) {
      const answer = await fetch(`${api.url}${path}`);
      expect(answer.status, path).to.equal(200);
      assertMatchesOpenApi(path, 200, await answer.json());
    }
    const ready = await fetch(`${api.url}/health/ready`);
    expect(ready.status).to.equal(200);
    const index = ((await ready.json()) as { index: { status: string; release: string | null } }).index;
    // Served as it is either way; a reindex is recommended when the previous release's contract is older (or it
    // recorded none, as 0.1.0 did), and the generation names the release that built it when it recorded one.
    const sameContract = previous.contract === INDEX_CONTRACT_VERSION;
    expect(index.status, `${tag}'s contract ${previous.contract}`).to.equal(
      sameContract ? 'ok' : 'reindex_recommended',
    );
    expect(index.release).to.equal(previous.contract === undefined ? null : previous.version);
  });

  it("this release's reindex over it from the same source logs no change but the red flags it now serves", async () => {
    const summary = await indexSample(client, alias);
    expect(summary.previousIndex).to.equal(previousIndex);
    // A release before the red flags (index contract 4) served none: each PPA that raises one has changed for a
    // client, once (docs/flags.md; CHANGELOG.md). Otherwise nothing changed.
    const flagged = (await client.count({ index: alias, query: { exists: { field: 'flags' } } })).count;
    const servedFlags = previous.contract !== undefined && previous.contract >= 4;
    expect(servedFlags || flagged > 0, 'the sample raises flags').to.equal(true);
    flagChanges = servedFlags ? 0 : flagged;
    expect(summary.changes).to.deep.include({ added: 0, updated: flagChanges, removed: 0 });
    expect(summary.changes!.unchanged).to.be.above(0);
    const ready = await fetch(`${api!.url}/health/ready`);
    const index = ((await ready.json()) as { index: { status: string; release: string } }).index;
    expect(index).to.deep.include({ status: 'ok', release: RELEASE });
  });

  it("the previous release's API serves this release's index", async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: releaseDir,
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ES_URL, ES_INDEX: alias },
      stdio: 'ignore',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        status = await fetch(`${base}/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status, `${tag}'s API ready`).to.equal(200);
      const list = await fetch(`${base}/api/v1/ppas?q=solar&per_page=5`);
      expect(list.status).to.equal(200);
      const body = (await list.json()) as { data: { slug: string }[]; meta: { total: number } };
      expect(body.meta.total).to.be.above(0);
      const detail = await fetch(`${base}/api/v1/ppas/${body.data[0]!.slug}`);
      expect(detail.status).to.equal(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it("a rollback onto the previous release's generation serves it, and logs no change but the red flags", async () => {
    const result = await rollback(client, alias);
    expect(result.to).to.equal(previousIndex);
    // The flags this release served are gone again: the same PPAs change back, once.
    expect(result.changes).to.deep.include({ added: 0, updated: flagChanges, removed: 0 });
    const list = await fetch(`${api!.url}/api/v1/ppas?per_page=1`);
    expect(list.status).to.equal(200);
    expect(((await list.json()) as { meta: { total: number } }).meta.total).to.be.above(0);
  });
});
