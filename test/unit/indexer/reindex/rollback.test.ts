// reindex/rollback: the alias pointed back at the generation built before the live one, under the generations lock,
// over the fake Elasticsearch. Checked: the swap back, logged as a change of generation (what the older one serves
// differently) and published; nothing to roll back to (no alias, no earlier generation kept) refused without a
// change; another run's lock refused; the lock released either way.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { AliasLock, LOCK_INDEX } from '../../../../indexer/elasticsearch/lock.js';
import { LockedError } from '../../../../indexer/errors.js';
import { NothingToRollBackError, rollback } from '../../../../indexer/reindex/rollback.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const [T1, T2, T3] = [1, 2, 3].map((minute) => generationName('ppas', minute)) as [string, string, string];

const locksHeld = (es: FakeElasticsearch) => [...(es.indices.get(LOCK_INDEX)?.documents.keys() ?? [])];

describe('indexer/reindex/rollback', () => {
  it('points the alias back at the generation before the live one, and logs what that changes', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, T1, ['a']);
    addGeneration(es, T2, [ppaRecord('a', { active: false }), ppaRecord('b')]);
    addGeneration(es, T3, [ppaRecord('a'), ppaRecord('c')], { live: true });
    const result = await rollback(es.client, 'ppas');
    expect(result).to.deep.equal({
      alias: 'ppas',
      from: T3,
      to: T2,
      changes: { added: 1, updated: 1, removed: 1, unchanged: 0 },
    });
    expect(es.aliasTarget('ppas')).to.equal(T2);
    const log = es.sources('ppas-changes');
    expect((log.get(HEAD_ID) as { log: ChangeLogHead }).log).to.include({ seq: 3, pending_to: 3 });
    const events = [1, 2, 3].map(
      (seq) => log.get(String(seq)) as { slug: string; change: { reason: string } },
    );
    expect(events.map((event) => [event.slug, event.change.reason])).to.deep.equal([
      ['a', 'deactivated'],
      ['b', 'published'],
      ['c', 'deleted'],
    ]);
    expect(locksHeld(es)).to.deep.equal([]);
    // Once more: back to T1, the one before T2.
    expect((await rollback(es.client, 'ppas')).to).to.equal(T1);
  });

  it('refuses when there is nothing to roll back to, changing nothing', async () => {
    const es = fakeElasticsearch();
    const none = await rejectionOf(rollback(es.client, 'ppas'));
    expect(none).to.be.instanceOf(NothingToRollBackError);
    expect(String(none)).to.include('alias "ppas" does not exist; nothing to roll back');
    addGeneration(es, T2, ['a'], { live: true });
    addGeneration(es, T3, ['a']); // newer, but not before the live one
    const only = await rejectionOf(rollback(es.client, 'ppas'));
    expect(String(only)).to.include(`alias "ppas" is on ${T2} and no earlier index is kept`);
    expect(es.aliasTarget('ppas')).to.equal(T2);
    expect(locksHeld(es)).to.deep.equal([]);
  });

  it('waits for no one: another run holding the generations lock is refused', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, T1, ['a']);
    addGeneration(es, T2, ['a'], { live: true });
    const other = await AliasLock.acquire(es.client, 'ppas', { owner: 'host-b pid 3' });
    expect(await rejectionOf(rollback(es.client, 'ppas'))).to.be.instanceOf(LockedError);
    expect(es.aliasTarget('ppas')).to.equal(T2);
    await other.release();
  });
});
