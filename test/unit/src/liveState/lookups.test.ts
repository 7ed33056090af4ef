// lookups: what is served, each read in one small request to Elasticsearch (here the in-process fake of
// test/support/fakeElasticsearch.ts): the generation behind the alias, the change log's head with sync's state, the
// alias's readiness, the live index's contract and the pages of its vocabulary; a missing alias is null, not an error.
import { expect } from 'chai';
import { changeLogIndexName, HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { judgeContract } from '../../../../indexContract/contract.js';
import { DATA_VERSION_FIELD, generationName } from '../../../../indexContract/dataVersion.js';
import { VOCABULARY_FIELD } from '../../../../indexContract/fields.js';
import { SYNC_GUARD_FIELD } from '../../../../indexContract/syncGuard.js';
import { createLiveLookups, VOCABULARY_PAGE_WORDS } from '../../../../src/liveState/lookups.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { rejectionOf } from '../../../support/rejection.js';

const ALIAS = 'ppas';
const INDEX = 'ppas-20261201-000000';
const HEAD: ChangeLogHead = {
  epoch: 'k3xq9a',
  created_at: '2026-12-01T00:00:00Z',
  seq: 42,
  pending_to: 42,
  pending_index: null,
  pruned_through: 0,
  retained_since: '2026-12-01T00:00:00Z',
};

describe('liveState/lookups: what is served, read from Elasticsearch', () => {
  let es: FakeElasticsearch;
  const lookups = () => createLiveLookups({ client: es.client, alias: ALIAS, requestTimeoutMs: 1000 });
  const live = (meta: Record<string, unknown> = {}, documents: object[] = []) =>
    es.addIndex(INDEX, { aliases: [ALIAS], meta, documents });

  beforeEach(() => {
    es = fakeElasticsearch();
  });

  it('without the alias: no live index, no generation, no contract, a cluster that answers but is not ready', async () => {
    expect(await lookups().liveIndex()).to.equal(null);
    expect(await lookups().liveGeneration()).to.equal(null);
    expect(await lookups().indexContract()).to.equal(null);
    expect(await lookups().ready()).to.deep.equal({ cluster: true, alias: false, detail: 'alias missing' });
    expect(await lookups().servedState()).to.deep.equal({ head: null, syncGuard: null, highWaterMark: null });
  });

  it('names the index behind the alias, and the generation with its data version (0 before any sync)', async () => {
    live();
    expect(await lookups().liveIndex()).to.equal(INDEX);
    expect(await lookups().liveGeneration()).to.equal(generationName(INDEX, 0));
    es.indices.get(INDEX)!.mappings._meta = { [DATA_VERSION_FIELD]: 7 };
    expect(await lookups().liveGeneration()).to.equal(generationName(INDEX, 7));
    expect(await lookups().ready()).to.deep.equal({ cluster: true, alias: true });
  });

  it('names an index of another mapping by its name alone (the filtered _mapping answer leaves it out)', async () => {
    live();
    es.intercept((call) => (call.path.endsWith('/_mapping') ? { body: {} } : undefined));
    expect(await lookups().liveGeneration()).to.equal(generationName(INDEX, 0));
  });

  it("reads the change log's head, sync's guard and its high-water mark together", async () => {
    const guard = { since: '2026-12-01T10:00:00Z', removals: 3, live: 40, max_removed: '5%', detail: 'held' };
    live({ [SYNC_GUARD_FIELD]: guard, high_water_mark: '2026-12-01T09:00:00Z' });
    es.addIndex(changeLogIndexName(ALIAS), { documents: [[HEAD_ID, { log: HEAD }]] });
    expect(await lookups().servedState()).to.deep.equal({
      head: HEAD,
      syncGuard: guard,
      highWaterMark: '2026-12-01T09:00:00Z',
    });
  });

  it("judges the live index's contract from its _meta and its mapping's fields", async () => {
    const meta = { contract_version: 1, release: '0.1.0' };
    const index = live(meta);
    index.mappings.properties = { slug: { type: 'keyword' } };
    expect(await lookups().indexContract()).to.deep.equal(judgeContract(meta, ['slug']));
  });

  it('says why the cluster is not ready: unreachable, or the HTTP status it answered', async () => {
    es.intercept(() => 'refused');
    expect(await lookups().ready()).to.deep.include({ cluster: false, alias: false, detail: 'unreachable' });
    es = fakeElasticsearch();
    es.intercept(() => ({ status: 401, body: { error: { type: 'security_exception' } } }));
    expect(await lookups().ready()).to.deep.equal({
      cluster: false,
      alias: false,
      detail: 'answered HTTP 401',
    });
  });

  it('fails (does not answer null) when the cluster does not answer a lookup', async () => {
    live();
    es.intercept(() => 'refused');
    expect(await rejectionOf(lookups().liveIndex())).to.be.instanceOf(Error);
  });

  it("pages the active PPAs' words in word order with their counts; a short page is the last", async () => {
    live({}, [
      { slug: 'a', active: true, [VOCABULARY_FIELD]: ['solar', 'kenya'] },
      { slug: 'b', active: true, [VOCABULARY_FIELD]: ['solar'] },
      { slug: 'c', active: false, [VOCABULARY_FIELD]: ['wind'] },
    ]);
    expect(await lookups().vocabularyPage(undefined)).to.deep.equal({
      words: [
        ['kenya', 1],
        ['solar', 2],
      ],
      after: undefined,
    });
    expect((await lookups().vocabularyPage('kenya')).words).to.deep.equal([['solar', 2]]);
  });

  it('asks for the next page after a full one, from its last word', async () => {
    live();
    const words = Array.from({ length: VOCABULARY_PAGE_WORDS }, (_, i) => ({
      key: { word: `w${i}` },
      doc_count: 1,
    }));
    es.intercept((call) =>
      call.path.endsWith('/_search')
        ? {
            body: {
              hits: { hits: [] },
              aggregations: { words: { buckets: words, after_key: { word: 'w9999' } } },
            },
          }
        : undefined,
    );
    const page = await lookups().vocabularyPage(undefined);
    expect(page.words).to.have.length(VOCABULARY_PAGE_WORDS);
    expect(page.after).to.equal('w9999');
  });
});
