// changes/loggedWrites: sync's writes in place, logged. Over the fake Elasticsearch: the documents before read
// realtime (only those that exist); a batch applied, made searchable, then its events published: a new PPA
// "published", a changed one "updated" or "deactivated", a removal with the document as last served and the reason
// given; a write that changes nothing a client sees and a delete of nothing logged not at all; and nothing applied
// when the alias moved to another index during the run.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { ChangeLog } from '../../../../indexer/changes/changeLog.js';
import { applyLogged, documentsById } from '../../../../indexer/changes/loggedWrites.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import type { Change } from '../../../../indexer/elasticsearch/changeBulk.js';
import { IndexerError } from '../../../../indexer/errors.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';

const LIVE = generationName('ppas', 1);
const LOG = 'ppas-changes';

const write = (slug: string, changes = {}): Change => ({
  kind: 'write',
  id: slug,
  document: buildDocument(ppaRecord(slug, changes)),
});

function events(es: FakeElasticsearch): { seq: number; reason: string; slug: string; active: boolean }[] {
  return [...es.sources(LOG).entries()]
    .filter(([id]) => id !== HEAD_ID)
    .map(([, event]) => {
      const { change, slug, active } = event as {
        change: { seq: number; reason: string };
        slug: string;
        active: boolean;
      };
      return { seq: change.seq, reason: change.reason, slug, active };
    })
    .sort((a, b) => a.seq - b.seq);
}

describe('indexer/changes/loggedWrites', () => {
  it('reads the documents of the ids that exist, realtime, and asks nothing for no ids', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['a', 'b']);
    await es.client.index({ index: LIVE, id: 'c', document: buildDocument(ppaRecord('c')) }); // not refreshed
    const found = await documentsById(es.client, LIVE, ['a', 'c', 'nope']);
    expect([...found.keys()]).to.deep.equal(['a', 'c']);
    expect(found.get('a')).to.deep.equal(buildDocument(ppaRecord('a')));
    const asked = es.calls.length;
    expect((await documentsById(es.client, LIVE, [])).size).to.equal(0);
    expect(es.calls.length).to.equal(asked);
  });

  it('applies a batch and logs what changed for a client, with the reason and the document served', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['same', 'edited', 'active', 'gone'], { live: true });
    const changes: Change[] = [
      write('new'),
      write('same'),
      write('edited', { capacity_mw: 99 }),
      write('active', { active: false }),
      { kind: 'delete', id: 'gone' },
      { kind: 'delete', id: 'never-there' },
    ];
    const logged = await applyLogged(
      es.client,
      new ChangeLog(es.client, 'ppas'),
      { alias: 'ppas', index: LIVE },
      changes,
      (id) => (id === 'gone' ? 'unpublished' : 'deleted'),
    );
    expect(logged).to.equal(4);
    expect(events(es)).to.deep.equal([
      { seq: 1, reason: 'published', slug: 'new', active: true },
      { seq: 2, reason: 'updated', slug: 'edited', active: true },
      { seq: 3, reason: 'deactivated', slug: 'active', active: false },
      // A removal carries the PPA as it was last served.
      { seq: 4, reason: 'unpublished', slug: 'gone', active: true },
    ]);
    expect([...es.sources(LIVE).keys()].sort()).to.deep.equal(['active', 'edited', 'new', 'same']);
    expect((es.sources(LOG).get(HEAD_ID) as { log: ChangeLogHead }).log.seq).to.equal(4);
    // The batch is searchable before its events are: a reader of an event finds the change in the index.
    const steps = es
      .requests()
      .filter((request) => /_bulk$|_refresh$/.test(request))
      .map((request) => request.split(' ')[1]);
    expect(steps).to.deep.equal(['/_bulk', `/${LIVE}/_refresh`, '/_bulk', `/${LOG}/_refresh`]);
  });

  it('logs nothing, and refreshes nothing, for writes that change nothing a client sees', async () => {
    const es = fakeElasticsearch();
    const live = addGeneration(es, LIVE, ['same'], { live: true });
    const refreshes = live.refreshes;
    const logged = await applyLogged(
      es.client,
      new ChangeLog(es.client, 'ppas'),
      { alias: 'ppas', index: LIVE },
      [write('same'), { kind: 'delete', id: 'nope' }],
      () => 'deleted',
    );
    expect(logged).to.equal(0);
    expect(events(es)).to.deep.equal([]);
    expect(live.refreshes).to.equal(refreshes);
  });

  it('applies nothing when the alias moved to another index during the run', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['a']);
    addGeneration(es, generationName('ppas', 2), ['a'], { live: true });
    let error: unknown;
    await applyLogged(
      es.client,
      new ChangeLog(es.client, 'ppas'),
      { alias: 'ppas', index: LIVE },
      [write('b')],
      () => 'deleted',
    ).catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(IndexerError);
    expect(String(error)).to.include(
      `the alias "ppas" moved to ${generationName('ppas', 2)} during this run`,
    );
    expect([...es.sources(LIVE).keys()]).to.deep.equal(['a']);
  });
});
