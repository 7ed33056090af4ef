// sync/liveGuard: the removal guard of a sync run on the live index, over the fake Elasticsearch and a relation in
// memory. Checked: the removals counted are the unpublished rows whose document is live (not those already gone)
// plus the vanished rows, against the live count and --max-removed (5% by default); past it, the run fails with exit
// 5 and the guard's state goes into the live index's _meta (keeping since when it first held); a later run within the
// limit clears it; ids asked for 1000 at a time.
import { expect } from 'chai';
import type { SyncGuardState } from '../../../../indexContract/syncGuard.js';
import { MassRemovalError } from '../../../../indexer/changes/removalGuard.js';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';
import type { ChangeSnapshot } from '../../../../indexer/sources/postgresChanges.js';
import { guardLiveRemovals } from '../../../../indexer/sync/liveGuard.js';
import { FakeRelation } from '../../../support/fakeChangeSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const LIVE = generationName('ppas', 1);
const slugs = (count: number) => Array.from({ length: count }, (_, n) => `p-${String(n).padStart(4, '0')}`);

/** A live index of `count` PPAs, and the relation with the same rows; `from` is the index's mark. */
function live(count: number): { es: FakeElasticsearch; relation: FakeRelation; from: string } {
  const es = fakeElasticsearch();
  const relation = new FakeRelation();
  const records = slugs(count).map((slug) => ppaRecord(slug));
  relation.put(...records);
  addGeneration(es, LIVE, records, { live: true });
  return { es, relation, from: relation.mark };
}

function guard(
  es: FakeElasticsearch,
  relation: FakeRelation,
  run: Partial<Parameters<typeof guardLiveRemovals>[3]> & { from: string },
) {
  return relation.snapshot((snapshot: ChangeSnapshot) =>
    guardLiveRemovals(es.client, LIVE, snapshot, {
      overlapSeconds: 0,
      vanished: 0,
      heldSince: undefined,
      maxRemoved: undefined,
      ...run,
    }),
  );
}

const held = (es: FakeElasticsearch) =>
  es.indices.get(LIVE)!.mappings._meta!.sync_guard as SyncGuardState | undefined;

describe('indexer/sync/liveGuard', () => {
  it('lets a run through within 5% of the live PPAs, counting only unpublished rows still served', async () => {
    const { es, relation, from } = live(40);
    // Two unpublished that are live, and three unpublished that were never served: 2 of 40 is 5%.
    relation.put(...slugs(2).map((slug) => ppaRecord(slug, { published: false })));
    relation.put(...['x', 'y', 'z'].map((slug) => ppaRecord(slug, { published: false })));
    await guard(es, relation, { from });
    expect(held(es)).to.equal(undefined);
  });

  it('holds back a mass removal: exit 5, and its state in the live index’s _meta', async () => {
    const { es, relation, from } = live(40);
    const before = Date.now();
    relation.put(...slugs(2).map((slug) => ppaRecord(slug, { published: false })));
    const error = await rejectionOf(guard(es, relation, { from, vanished: 1 }));
    expect(error).to.be.instanceOf(MassRemovalError);
    expect((error as MassRemovalError).exitCode).to.equal(EXIT_CODES.guard);
    expect(String(error)).to.include('this sync run would remove 3 of the 40 live PPAs');
    const state = held(es)!;
    expect(state).to.deep.include({
      removals: 3,
      live: 40,
      max_removed: '5%',
      detail: (error as Error).message,
    });
    expect(Date.parse(state.since), 'held back during this run').to.be.within(before, Date.now());
    expect(es.indices.get(LIVE)!.mappings._meta).to.include({ records: 40 }); // the rest kept
  });

  it('keeps since when the guard first held, and clears it once a run is within the limit', async () => {
    const { es, relation, from } = live(10);
    const since = '2026-01-01T00:00:00.000Z';
    const error = await rejectionOf(
      guard(es, relation, { from, vanished: 10, heldSince: since, maxRemoved: { count: 3 } }),
    );
    expect(error).to.be.instanceOf(MassRemovalError);
    expect(held(es)).to.deep.include({ since, removals: 10, max_removed: '3' });
    await guard(es, relation, { from, vanished: 3, heldSince: since, maxRemoved: { count: 3 } });
    expect(held(es)).to.equal(undefined);
  });

  it('asks which unpublished rows are live 1000 ids at a time', async () => {
    const { es, relation, from } = live(1001);
    relation.put(...slugs(1001).map((slug) => ppaRecord(slug, { published: false })));
    await guard(es, relation, { from, maxRemoved: { share: 1 } });
    const asked = es.calls.filter((call) => call.path.endsWith('/_mget'));
    expect(asked.map((call) => (call.body as { ids: string[] }).ids.length)).to.deep.equal([1000, 1]);
  });
});
