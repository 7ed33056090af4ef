// scripts/elasticsearch.sh must fail with a message that names what is missing, before it downloads or starts anything.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/services.js';

const SCRIPT = 'scripts/elasticsearch.sh';

function runScript(env: Record<string, string | undefined>, ...args: string[]) {
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...env })) {
    if (value !== undefined) merged[key] = value;
  }
  const result = spawnSync('bash', [SCRIPT, ...args], { env: merged, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

/** A PATH with the usual tools but without Maven. */
function pathWithoutMaven(): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'no-mvn-'));
  const tools =
    'bash curl id sed head cat mkdir dirname ss grep tail rm cp chmod chown runuser useradd unzip env sleep kill printf node stat';
  for (const tool of tools.split(' ')) {
    const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(dir, tool));
  }
  return { dir, path: dir };
}

describe('scripts/elasticsearch.sh failures name the missing piece', () => {
  it('no Maven on PATH (for a version that is not cached yet)', async () => {
    const { dir, path } = pathWithoutMaven();
    try {
      const port = await freePort();
      const result = runScript({ PATH: path, ES_VERSION: '8.99.99', ES_PORT: String(port) }, 'start');
      expect(result.status).to.equal(1);
      expect(result.stderr).to.match(/Maven \(mvn\) is not on PATH/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a download that fails (a version Maven Central does not have)', async function () {
    this.timeout(60_000);
    const port = await freePort();
    const result = runScript({ ES_VERSION: '8.0.0-nonexistent', ES_PORT: String(port) }, 'start');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(
      /download of org\.elasticsearch\.distribution\.integ-test-zip:elasticsearch:8\.0\.0-nonexistent:zip failed/,
    );
  });

  it('no suitable JDK found', async () => {
    const port = await freePort();
    const result = runScript(
      {
        JAVA_HOME: undefined,
        ES_JAVA_HOME: undefined,
        ES_JVM_DIR: '/nonexistent-jvm-dir',
        ES_VERSION: '8.19.9', // the message names the version's minimum Java; pin it, whatever the suite runs on
        ES_PORT: String(port),
      },
      'start',
    );
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/no suitable JDK found: Elasticsearch \S+ needs Java 17 or newer/);
  });

  it('a JDK too old for the version asked for', async () => {
    const port = await freePort();
    const result = runScript(
      { ES_VERSION: '9.2.0', ES_JAVA_HOME: '/usr/lib/jvm/java-17-openjdk-amd64', ES_PORT: String(port) },
      'start',
    );
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/needs Java 21 or newer/);
  });

  it('the port is taken by another process', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = runScript({ ES_PORT: String(port) }, 'start');
      expect(result.status).to.equal(1);
      expect(result.stderr).to.match(new RegExp(`port ${port} is taken`));
    } finally {
      server.close();
    }
  });

  describe('a run root that another local user could control is refused before anything starts', () => {
    let parent: string;
    beforeEach(() => {
      parent = mkdtempSync(join(tmpdir(), 'es-root-'));
    });
    afterEach(() => rmSync(parent, { recursive: true, force: true }));

    const startWith = async (root: string) =>
      runScript({ ES_PORT: String(await freePort()), ES_RUN_ROOT: root, ES_RUN_DIR: undefined }, 'start');

    it('writable by others', async () => {
      const root = join(parent, 'run');
      mkdirSync(root);
      chmodSync(root, 0o777);
      const result = await startWith(root);
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain(`${root} is writable by group or others: refusing`);
    });

    it('a symbolic link', async () => {
      mkdirSync(join(parent, 'elsewhere'));
      symlinkSync(join(parent, 'elsewhere'), join(parent, 'run'));
      const result = await startWith(join(parent, 'run'));
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain('is a symbolic link: refusing');
    });

    it('owned by another user', async function () {
      if (process.getuid?.() !== 0) this.skip(); // only root can give a directory away
      const root = join(parent, 'run');
      mkdirSync(root);
      chownSync(root, 65534, 65534);
      const result = await startWith(root);
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain('belongs to another user');
    });
  });

  it('a cluster: ES_NODES must be a whole number, and security is for a single node', async () => {
    const port = await freePort();
    const bad = runScript({ ES_NODES: 'three', ES_PORT: String(port) }, 'start');
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('ES_NODES must be a whole number from 1 (got three)');
    const secured = runScript(
      { ES_NODES: '2', ES_PORT: String(port), ES_SECURITY: 'true', ES_ELASTIC_PASSWORD: 'x' },
      'start',
    );
    expect(secured.status).to.equal(1);
    expect(secured.stderr).to.contain('ES_SECURITY=true is for a single node');
  });

  it('a cluster: url lists every node (ES_NODES from ES_PORT, or ES_PORTS), status reports each', async () => {
    expect(runScript({ ES_NODES: '3', ES_PORT: '19200', ES_PORTS: undefined }, 'url').stdout.trim()).to.equal(
      'http://127.0.0.1:19200,http://127.0.0.1:19201,http://127.0.0.1:19202',
    );
    const ports = [await freePort(), await freePort()];
    expect(runScript({ ES_PORTS: ports.join(',') }, 'url').stdout.trim()).to.equal(
      ports.map((port) => `http://127.0.0.1:${port}`).join(','),
    );
    const status = runScript({ ES_PORTS: ports.join(','), ES_VERSION: '8.19.9' }, 'status');
    expect(status.status).to.equal(3);
    expect(status.stdout.trim().split('\n')).to.deep.equal(
      ports.map((port) => `not running (port ${port}, version 8.19.9)`),
    );
    const kill = runScript({ ES_PORT: String(ports[0]) }, 'kill');
    expect(kill.status).to.equal(1);
    expect(kill.stderr).to.contain(`no node of ours is running on port ${ports[0]}`);
  });

  it('status reports not running for a port with no server of ours', async () => {
    const port = await freePort();
    const result = runScript({ ES_PORT: String(port) }, 'status');
    expect(result.status).to.equal(3);
    expect(result.stdout).to.match(/not running/);
  });
});
