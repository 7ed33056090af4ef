// What several handlers read of the served state: changesSince (the change log's head as a token, or null when
// there is none or it cannot be read within the watcher's short wait: a list answer does not depend on it) and
// logHead (the head itself, waited for however long the lookup takes; 503 while no log exists).
import { expect } from 'chai';
import { WAIT_MS } from '../../../../src/liveState/servedStateWatcher.js';
import { boundedBy } from '../../../support/timing.js';
import { ServiceUnavailableError } from '../../../../src/http/problem.js';
import type { LiveState } from '../../../../src/liveState/liveState.js';
import type { ServedState } from '../../../../src/liveState/lookups.js';
import { ServedStateWatcher } from '../../../../src/liveState/servedStateWatcher.js';
import { changesSince, logHead } from '../../../../src/operations/shared.js';
import { SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import type { SearchGateway } from '../../../../src/gateway/gateway.js';
import { operationDeps } from '../../../support/operationDeps.js';
import { servedStateOf } from '../../../support/servedState.js';

/** Handler deps whose served state is read by `read`, waited for at most 5 ms where a wait is bounded. */
function depsReading(read: () => Promise<ServedState>) {
  const served = new ServedStateWatcher({ read, waitMs: 5 });
  return operationDeps({ search: {} as SearchGateway, liveState: { served } as unknown as LiveState });
}

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const never = () => new Promise<ServedState>(() => undefined);

describe('operations/shared: the change log as the handlers read it', () => {
  describe('changesSince', () => {
    it("is the head's position as a token", async () => {
      const deps = depsReading(async () => servedStateOf({ epoch: 'k3xq9a', seq: 1042 }));
      expect(await changesSince(deps)).to.equal('k3xq9a.1042');
    });

    it('is null without a log, when the lookup fails, or when it does not answer within the short wait', async () => {
      expect(await changesSince(depsReading(async () => servedStateOf(null)))).to.equal(null);
      expect(await changesSince(depsReading(() => Promise.reject(new Error('down'))))).to.equal(null);
      const started = performance.now();
      expect(await changesSince(depsReading(never))).to.equal(null);
      // The served state's short wait (WAIT_MS) ends it: the lookup itself never answers.
      expect(performance.now() - started).to.be.below(boundedBy(WAIT_MS));
    });
  });

  describe('logHead', () => {
    it('is the head itself', async () => {
      const state = servedStateOf({ epoch: 'k3xq9a', seq: 9, pruned_through: 3 });
      expect(await logHead(depsReading(async () => state))).to.deep.equal(state.head);
    });

    it('waits for a lookup slower than the short wait, where changesSince gives up', async () => {
      const slow = () => after(15, servedStateOf({ seq: 5 }));
      expect(await changesSince(depsReading(slow))).to.equal(null);
      expect((await logHead(depsReading(slow))).seq).to.equal(5);
    });

    it('is a 503 naming the change log, asking to retry in 30 s, while no log exists', async () => {
      let error: unknown;
      await logHead(depsReading(async () => servedStateOf(null))).catch(
        (caught: unknown) => (error = caught),
      );
      expect(error).to.be.instanceOf(ServiceUnavailableError);
      const problem = error as ServiceUnavailableError;
      expect([problem.status, problem.headers]).to.deep.equal([503, { 'Retry-After': '30' }]);
      expect(problem.detail).to.match(
        /^The change log has not started yet: it starts with the next reindex or sync/,
      );
    });

    it("passes a failed lookup's error on (the outage 503), never an answer without a head", async () => {
      let error: unknown;
      await logHead(depsReading(() => Promise.reject(new Error('down')))).catch(
        (caught: unknown) => (error = caught),
      );
      expect(error).to.be.instanceOf(SearchUnavailableError);
      expect((error as SearchUnavailableError).headers).to.deep.equal({ 'Retry-After': '5' });
    });
  });
});
