// changes/compareGenerations: the two sides of a swap compared over the fake Elasticsearch: two generations read
// from the index (a rollback), or the outgoing one read and the incoming one taken from what a reindex noted as it
// wrote it; both give the same diff, cut into ranges or not, with removals told unpublished from deleted.
import { expect } from 'chai';
import { BuiltEntries } from '../../../../indexer/changes/builtEntries.js';
import { compareGenerations, compareWithBuilt } from '../../../../indexer/changes/compareGenerations.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';

const OLD = generationName('ppas', 1);
const NEW = generationName('ppas', 2);
const outgoing = ['kept', 'edited', 'dropped', 'hidden', 'z-last'].map((slug) => ppaRecord(slug));
const incoming = [
  ppaRecord('kept'),
  ppaRecord('edited', { capacity_mw: 1 }),
  ppaRecord('a-new'),
  ppaRecord('z-last'),
  ppaRecord('zz-new'),
];

describe('indexer/changes/compareGenerations', () => {
  it('compares two generations read from the index, in ranges or not, naming each change', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, OLD, outgoing);
    addGeneration(es, NEW, incoming);
    const diff = await compareGenerations(es.client, OLD, NEW, new Set(['hidden']));
    expect(diff).to.include({ added: 2, updated: 1, removed: 2, unchanged: 2, before: 5, after: 5 });
    expect(diff.entries).to.deep.equal([
      { slug: 'a-new', kind: 'added', reason: 'published' },
      { slug: 'dropped', kind: 'removed', reason: 'deleted' },
      { slug: 'edited', kind: 'updated', reason: 'updated' },
      { slug: 'hidden', kind: 'removed', reason: 'unpublished' },
      { slug: 'zz-new', kind: 'added', reason: 'published' },
    ]);
    expect(await compareGenerations(es.client, OLD, NEW, new Set(['hidden']), ['e', 'k', 'z'])).to.deep.equal(
      diff,
    );
  });

  it('gives the same diff from what a reindex noted as from the new index read back', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, OLD, outgoing);
    addGeneration(es, NEW, incoming);
    const built = new BuiltEntries();
    for (const record of incoming) {
      const document = buildDocument(record);
      built.add(document.slug, document.content_hash);
    }
    const noted = await compareWithBuilt(es.client, OLD, built, new Set(['hidden']));
    expect(
      es.calls.filter((call) => call.path.includes(NEW)),
      'the new index is not read',
    ).to.deep.equal([]);
    expect(noted).to.deep.equal(await compareGenerations(es.client, OLD, NEW, new Set(['hidden'])));
  });
});
