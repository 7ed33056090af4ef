// `npm start` on a machine where no Elasticsearch answers: it starts one itself (scripts/elasticsearch.sh), indexes
// the sample and serves it; nothing outlives the test. In the slower leg (npm run test:slow): it repeats the quick
// start of test/integration/quickstart.test.ts with an Elasticsearch start of its own.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, start, waitForOutput, type Started } from '../support/quickstart.js';
import { freePort } from '../support/services.js';

describe('quick start: npm start on a fresh machine', function () {
  this.timeout(180_000);
  let running: Started | undefined;

  it('on a machine where no Elasticsearch answers, starts one itself (the fresh-machine path)', async () => {
    const esPort = String(await freePort());
    const port = await freePort();
    const runParent = mkdtempSync(join(tmpdir(), 'quickstart-es-'));
    const runDir = join(runParent, 'es'); // data, logs and pid of the server npm start brings up
    try {
      running = start({
        ES_PORT: esPort,
        ES_RUN_DIR: runDir,
        ES_INDEX: 'ppas',
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      await waitForOutput(running, 'Ctrl-C stops the API.', 170_000);
      expect(running.stderr.join('')).to.include(`nothing answers on http://127.0.0.1:${esPort}`);
      expect(running.stderr.join('')).to.include('indexing the sample data');
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/ppas?q=solar&per_page=1`);
      expect(answer.status).to.equal(200);
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).to.be.above(0);
    } finally {
      if (running && running.child.exitCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
      // The Elasticsearch that npm start started outlives the API by design: stop it here.
      const stopped = spawn('bash', ['scripts/elasticsearch.sh', 'stop', '--purge'], {
        cwd: ROOT,
        env: { ...process.env, ES_PORT: esPort, ES_RUN_DIR: runDir },
        stdio: 'ignore',
      });
      await once(stopped, 'exit');
    }
    // Nothing may outlive the suite: the server it started is gone.
    const stillAnswering = await fetch(`http://127.0.0.1:${esPort}/_cluster/health`).catch(() => null);
    expect(stillAnswering, `an Elasticsearch still answers on port ${esPort}`).to.equal(null);
    expect(existsSync(runDir), `${runDir} is left behind`).to.equal(false);
    rmSync(runParent, { recursive: true, force: true });
  });
});
