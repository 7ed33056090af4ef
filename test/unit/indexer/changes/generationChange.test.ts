// changes/generationChange: a change of generation (a reindex's or a rollback's swap) written to the change log.
// Over the fake Elasticsearch: each changed PPA logged with its document (the incoming one, or the outgoing one for
// a removal), an update told apart as a (de)activation from the documents, the events pending for the incoming
// index until published, documents fetched a bounded batch at a time, and a document that cannot be read back
// failing the log rather than logging less.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { ChangeLog } from '../../../../indexer/changes/changeLog.js';
import { compareGenerations } from '../../../../indexer/changes/compareGenerations.js';
import { appendGenerationChange } from '../../../../indexer/changes/generationChange.js';
import type { GenerationDiff } from '../../../../indexer/changes/generationDiff.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';

const FROM = generationName('ppas', 1);
const TO = generationName('ppas', 2);
const LOG = 'ppas-changes';

describe('indexer/changes/generationChange', () => {
  it('logs each change with its document, pending for the incoming index', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, FROM, [
      ppaRecord('off'),
      ppaRecord('on', { active: false }),
      ppaRecord('edit'),
      ppaRecord('gone', { developer: 'Old' }),
    ]);
    addGeneration(es, TO, [
      ppaRecord('off', { active: false }),
      ppaRecord('on'),
      ppaRecord('edit', { capacity_mw: 2 }),
      ppaRecord('new'),
    ]);
    const diff = await compareGenerations(es.client, FROM, TO);
    const head = await new ChangeLog(es.client, 'ppas').write(async (session) => {
      await appendGenerationChange(es.client, session, diff, { from: FROM, to: TO });
      session.markHappened(); // as after the swap: the events are kept for publishing
      return session.head;
    });
    expect(head).to.include({ seq: 0, pending_to: 5, pending_index: TO });
    const logged = [1, 2, 3, 4, 5].map(
      (seq) =>
        es.sources(LOG).get(String(seq)) as { slug: string; developer: string; change: { reason: string } },
    );
    expect(logged.map((event) => [event.slug, event.change.reason])).to.deep.equal([
      ['edit', 'updated'],
      ['gone', 'deleted'],
      ['new', 'published'],
      ['off', 'deactivated'],
      ['on', 'reactivated'],
    ]);
    expect(logged[1]!.developer, 'the removed PPA as it was served').to.equal('Old');
    expect((es.sources(LOG).get(HEAD_ID) as { log: ChangeLogHead }).log.pending_to).to.equal(5);
  });

  it('fetches the documents of 500 changes at a time, and fails on one it cannot read back', async () => {
    const es = fakeElasticsearch();
    const slugs = Array.from({ length: 501 }, (_, n) => `p-${String(n).padStart(3, '0')}`);
    addGeneration(es, FROM, [ppaRecord('edit')]);
    addGeneration(es, TO, [ppaRecord('edit', { capacity_mw: 2 }), ...slugs]);
    const diff = await compareGenerations(es.client, FROM, TO);
    expect(diff.added).to.equal(501);
    await new ChangeLog(es.client, 'ppas').write(async (session) => {
      await appendGenerationChange(es.client, session, diff, { from: FROM, to: TO });
      session.markHappened();
    });
    const mgets = es.calls.filter((call) => call.path.endsWith('/_mget'));
    // 502 changes: 'edit' and 499 added (the outgoing side asked for 'edit' alone), then the last 2 added.
    expect(mgets.map((call) => (call.body as { ids: string[] }).ids.length)).to.deep.equal([1, 500, 2]);
    expect(es.sources(LOG).size).to.equal(1 + 502);

    const missing: GenerationDiff = {
      ...diff,
      entries: [{ slug: 'ghost', kind: 'added', reason: 'published' }],
    };
    let error: unknown;
    await new ChangeLog(es.client, 'ppas')
      .write((session) => appendGenerationChange(es.client, session, missing, { from: FROM, to: TO }))
      .catch((caught: unknown) => (error = caught));
    expect(String(error)).to.include('the change log could not read "ghost" back from its generation');
  });
});
