// sync/syncFollow: `sync --follow`, a run every --interval until the run is aborted, or at once on a notification.
// Over a scripted stand-in for one sync run and short intervals; LISTEN is either refused (a closed local port:
// polling alone keeps the pace) or a pg client whose connection is stubbed in-process, so a test can notify. Checked:
// runs repeat and each summary is handed on; an abort ends the wait at once; a failed run is logged and retried, a
// lost lock ends follow; the reconcile every N runs or when a minute has passed; a notification wakes the loop before
// the interval, and a deleted row's notification makes the next run reconcile.
import { expect } from 'chai';
import { SHARED_MACHINE_SLACK_MS } from '../../../support/timing.js';
import { createServer } from 'node:net';
import pg from 'pg';
import type { AliasLock } from '../../../../indexer/elasticsearch/lock.js';
import { LockLostError } from '../../../../indexer/elasticsearch/lock.js';
import { InterruptedError } from '../../../../indexer/errors.js';
import type { IndexerLogger } from '../../../../indexer/indexerLog.js';
import type { Sync, SyncRunSummary } from '../../../../indexer/sync/sync.js';
import { follow, type FollowOptions } from '../../../../indexer/sync/syncFollow.js';

interface Script {
  /** What run n (from 0) does: a summary (reconciled or not), or an error thrown. */
  (run: number): Partial<SyncRunSummary> | Error;
}

/** A Sync whose runs follow `script`; each run asks shouldReconcile with the runs made so far. */
function scriptedSync(script: Script): { sync: Sync; reconciles: boolean[]; runs: () => number } {
  const reconciles: boolean[] = [];
  const sync = {
    run: async (shouldReconcile: (runsOnIndex: number) => boolean): Promise<SyncRunSummary> => {
      const run = reconciles.length;
      reconciles.push(shouldReconcile(run));
      const outcome = script(run);
      if (outcome instanceof Error) throw outcome;
      return { index: 'ppas-1', written: run, reconciled: reconciles.at(-1)!, ...outcome } as SyncRunSummary;
    },
  };
  return { sync: sync as unknown as Sync, reconciles, runs: () => reconciles.length };
}

function recordingLogger(): { logger: IndexerLogger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (_fields: unknown, message: string) => void lines.push(`${level} ${message}`);
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') } as IndexerLogger, lines };
}

const heldLock = { assertHeld: () => undefined } as unknown as AliasLock;

/** A postgres:// URL of a local port nothing listens on: LISTEN is refused at once. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `postgres://indexer@127.0.0.1:${port}/ppas`;
}

const until = async (condition: () => boolean): Promise<void> => {
  for (let waited = 0; !condition(); waited += 2) {
    if (waited > 1000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

describe('indexer/sync/syncFollow', () => {
  let url: string;
  before(async () => (url = await refusingUrl()));

  function following(sync: Sync, options: Partial<FollowOptions> = {}) {
    const controller = new AbortController();
    const summaries: SyncRunSummary[] = [];
    const { logger, lines } = recordingLogger();
    const done = follow({
      sync,
      url,
      lock: heldLock,
      intervalSeconds: 0.005,
      signal: controller.signal,
      logger,
      onRun: (summary) => summaries.push(summary),
      ...options,
    });
    return { controller, summaries, lines, done };
  }

  it('runs again every interval, handing on each summary, polling when LISTEN is refused', async () => {
    const scripted = scriptedSync(() => ({}));
    const { controller, summaries, lines, done } = following(scripted.sync);
    await until(() => scripted.runs() >= 3);
    controller.abort();
    await done;
    expect(summaries.map((summary) => summary.written).slice(0, 3)).to.deep.equal([0, 1, 2]);
    expect(lines[0]).to.equal('warn could not LISTEN: polling only');
  });

  it('ends at once when aborted during the wait, however long the interval', async () => {
    const scripted = scriptedSync(() => ({}));
    const { controller, done } = following(scripted.sync, { intervalSeconds: 3600 });
    await until(() => scripted.runs() === 1);
    const aborted = performance.now();
    controller.abort();
    await done;
    // The abort ends the wait (no deadline of its own, so the slack alone), not the hour's interval.
    expect(performance.now() - aborted).to.be.below(SHARED_MACHINE_SLACK_MS);
    expect(scripted.runs()).to.equal(1);
  });

  it('logs a failed run and tries again at the next tick; ends quietly on an interruption', async () => {
    const scripted = scriptedSync((run) =>
      run === 0 ? new Error('Elasticsearch went away') : run === 2 ? new InterruptedError('SIGTERM') : {},
    );
    const { summaries, lines, done } = following(scripted.sync);
    await done;
    expect(scripted.runs()).to.equal(3);
    expect(summaries).to.have.length(1);
    expect(lines).to.include('error sync run failed; retrying in 0.005s');
  });

  it('ends with the error when the lock is lost', async () => {
    const scripted = scriptedSync((run) => (run === 1 ? new LockLostError('lost the sync lock') : {}));
    const { done } = following(scripted.sync);
    let error: unknown;
    await done.catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(LockLostError);
    const lost = {
      assertHeld: () => {
        throw new LockLostError('lost before a run');
      },
    } as unknown as AliasLock;
    let before: unknown;
    await following(scriptedSync(() => ({})).sync, { lock: lost }).done.catch(
      (caught: unknown) => (before = caught),
    );
    expect(before).to.be.instanceOf(LockLostError);
  });

  it('reconciles every N runs with --reconcile-every, else on the first run and then once a minute', async () => {
    const every = scriptedSync(() => ({}));
    const counted = following(every.sync, { reconcileEvery: 3 });
    await until(() => every.runs() >= 7);
    counted.controller.abort();
    await counted.done;
    expect(every.reconciles.slice(0, 7)).to.deep.equal([true, false, false, true, false, false, true]);

    const timed = scriptedSync(() => ({}));
    const byTime = following(timed.sync);
    await until(() => timed.runs() >= 4);
    byTime.controller.abort();
    await byTime.done;
    expect(timed.reconciles.slice(0, 4)).to.deep.equal([true, false, false, false]);
  });

  describe('with LISTEN', () => {
    const prototype = pg.Client.prototype;
    const real = { connect: prototype.connect, query: prototype.query, end: prototype.end };
    const listeners: pg.Client[] = [];
    beforeEach(() => {
      listeners.length = 0;
      prototype.connect = async function (this: pg.Client) {
        listeners.push(this);
      } as unknown as typeof prototype.connect;
      prototype.query = (async () => ({ rows: [] })) as unknown as typeof prototype.query;
      prototype.end = (async () => undefined) as typeof prototype.end;
    });
    afterEach(() => Object.assign(prototype, real));

    it('wakes at a notification rather than at the interval, and reconciles after a deleted row', async () => {
      const scripted = scriptedSync(() => ({}));
      const { controller, lines, done } = following(scripted.sync, { intervalSeconds: 3600 });
      await until(() => scripted.runs() === 1);
      expect(lines).to.deep.equal([]);
      expect(listeners).to.have.length(1);
      listeners[0]!.emit('notification', { channel: 'ppa_index_records', payload: 'upsert', processId: 1 });
      await until(() => scripted.runs() === 2);
      listeners[0]!.emit('notification', { channel: 'ppa_index_records', payload: 'delete', processId: 1 });
      await until(() => scripted.runs() === 3);
      controller.abort();
      await done;
      // The first run reconciles (none had), the upsert's does not, the deleted row's does.
      expect(scripted.reconciles).to.deep.equal([true, false, true]);
    });

    it('polls on when the LISTEN connection is lost', async () => {
      const scripted = scriptedSync(() => ({}));
      const { controller, lines, done } = following(scripted.sync, { intervalSeconds: 0.005 });
      await until(() => scripted.runs() === 1);
      listeners[0]!.emit('error', new Error('terminating connection'));
      const after = scripted.runs();
      await until(() => scripted.runs() >= after + 2);
      controller.abort();
      await done;
      expect(lines).to.include('warn LISTEN connection lost: polling until it is back');
    });
  });
});
