// elasticsearch/changeBulk: sync's changes applied in one _bulk request: a write indexes (replacing an earlier
// version), a delete deletes (a missing document is fine: replays are idempotent), items refused with 429 are sent
// again alone until they pass, and any other refusal fails naming the change. Over the fake Elasticsearch; the
// backoff between attempts (500 ms and up) is cut to nothing by a stand-in setTimeout for those delays only.
import { expect } from 'chai';
import { applyChanges, type Change } from '../../../../indexer/elasticsearch/changeBulk.js';
import { BulkRejectedError } from '../../../../indexer/errors.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';

const BACKOFF_MS = new Set([500, 1000, 2000, 4000, 8000]);

describe('indexer/elasticsearch/changeBulk', () => {
  const realSetTimeout = globalThis.setTimeout;
  const waits: number[] = [];
  beforeEach(() => {
    waits.length = 0;
    globalThis.setTimeout = ((callback: () => void, ms?: number) => {
      if (ms !== undefined && BACKOFF_MS.has(ms)) waits.push(ms);
      return realSetTimeout(callback, ms !== undefined && BACKOFF_MS.has(ms) ? 0 : ms);
    }) as typeof setTimeout;
  });
  afterEach(() => {
    globalThis.setTimeout = realSetTimeout;
  });

  it('writes and deletes in one request; a delete of a missing document is no error', async () => {
    const es = fakeElasticsearch();
    es.addIndex('ppas-1', { documents: [{ slug: 'old' }, { slug: 'gone' }] });
    const changes: Change[] = [
      { kind: 'write', id: 'new', document: { slug: 'new' } },
      { kind: 'write', id: 'old', document: { slug: 'old', v: 2 } },
      { kind: 'delete', id: 'gone' },
      { kind: 'delete', id: 'never-there' },
    ];
    await applyChanges(es.client, 'ppas-1', changes);
    expect(es.calls).to.have.length(1);
    expect(Object.fromEntries(es.sources('ppas-1'))).to.deep.equal({
      old: { slug: 'old', v: 2 },
      new: { slug: 'new' },
    });
  });

  it('sends again only the items refused with 429, with a growing wait, until they pass', async () => {
    const es = fakeElasticsearch();
    es.addIndex('ppas-1');
    let refusals = 2;
    es.refuseItems((_index, id) =>
      id === 'busy' && refusals-- > 0 ? { status: 429, type: 'es_rejected_execution_exception' } : undefined,
    );
    await applyChanges(es.client, 'ppas-1', [
      { kind: 'write', id: 'calm', document: { n: 1 } },
      { kind: 'write', id: 'busy', document: { n: 2 } },
    ]);
    const sent = es.calls.map((call) => (call.body as object[]).length / 2);
    expect(sent).to.deep.equal([2, 1, 1]);
    expect(waits).to.deep.equal([500, 1000]);
    expect([...es.sources('ppas-1').keys()].sort()).to.deep.equal(['busy', 'calm']);
  });

  it('fails naming the change on any other refusal, and on a 429 that outlives the attempts', async () => {
    const es = fakeElasticsearch();
    es.addIndex('ppas-1');
    es.refuseItems((_index, id) =>
      id === 'bad'
        ? { status: 400, type: 'mapper_parsing_exception', reason: 'failed to parse field [capacity_mw]' }
        : { status: 429, type: 'es_rejected_execution_exception' },
    );
    let error: unknown;
    await applyChanges(es.client, 'ppas-1', [{ kind: 'write', id: 'bad', document: {} }]).catch(
      (caught: unknown) => (error = caught),
    );
    expect(error).to.be.instanceOf(BulkRejectedError);
    expect(String(error)).to.include(
      'Elasticsearch refused write of "bad": mapper_parsing_exception failed to parse field [capacity_mw]',
    );
    error = undefined;
    await applyChanges(es.client, 'ppas-1', [{ kind: 'write', id: 'busy', document: {} }]).catch(
      (caught: unknown) => (error = caught),
    );
    expect(String(error)).to.include('refused write of "busy": es_rejected_execution_exception');
    expect(es.calls).to.have.length(1 + 6);
  });
});
