// The search gateway against an Elasticsearch client answered in-process (test/support/fakeConnection.ts): what it
// sends, how it maps the client's errors, when it tries again on another node, admission's refusals and a
// client's abort. No network.
import { expect } from 'chai';
import { ES_VARIABLES_SPEC } from '../../../../settings/elasticsearch.js';
import { Admission } from '../../../../src/gateway/admission.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from '../../../../src/gateway/searchErrors.js';
import { createSearchGateway, type SearchGateway } from '../../../../src/gateway/gateway.js';
import { withRequestSignal } from '../../../../src/http/requestSignal.js';
import {
  fakeCluster,
  type FakeAnswer,
  type FakeCall,
  type FakeCluster,
} from '../../../support/fakeConnection.js';
import { rejectionOf } from '../../../support/rejection.js';

const REQUEST_TIMEOUT_MS = 400;

/**
 * The users' default deadline (ES_REQUEST_TIMEOUT_MS), for a test whose retry must still get an answer after a hang:
 * a third of 400 ms is less than a loaded two-core machine may stall a process (a CI run lost one so).
 */
const DEFAULT_REQUEST_TIMEOUT_MS = Number(ES_VARIABLES_SPEC.ES_REQUEST_TIMEOUT_MS.default);

function gatewayOf(
  cluster: FakeCluster,
  admission?: Admission,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): SearchGateway {
  return createSearchGateway({
    client: cluster.client,
    alias: 'ppas',
    requestTimeoutMs,
    ...(admission ? { admission } : {}),
  });
}

function hitsOf(...ids: string[]): unknown {
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: { value: ids.length, relation: 'eq' },
      hits: ids.map((id) => ({ _index: 'ppas-1', _id: id })),
    },
  };
}

const lookup = (id: string) => ({ id, _source_includes: ['slug'], realtime: false as const });

/** Elasticsearch's answer to a failed request: `status`, with an error of `type`. */
const failed = (status: number, type: string) => ({
  status,
  body: { error: { type, reason: type }, status },
});

describe('search/gateway: the API’s door to Elasticsearch', () => {
  it('sends a search to the alias, with its share of the deadline and no client retry, and returns the answer', async () => {
    const cluster = fakeCluster(() => ({ body: hitsOf('a', 'b') }));
    const answer = await gatewayOf(cluster).search({ query: { match_all: {} }, size: 2 });
    expect(answer.hits.hits.map((hit) => hit._id)).to.deep.equal(['a', 'b']);
    const [call, ...more] = cluster.calls;
    expect(more).to.deep.equal([]);
    expect(call).to.include({ method: 'POST', path: '/ppas/_search' });
    expect(call?.body).to.deep.equal({ query: { match_all: {} }, size: 2 });
    // The first attempt keeps a third of the deadline for a retry on another node.
    expect(call?.timeout).to.be.within(REQUEST_TIMEOUT_MS / 2, REQUEST_TIMEOUT_MS - REQUEST_TIMEOUT_MS / 4);
  });

  it('counts the deadline from startedAt when given: the searches of one answer share it', async () => {
    const cluster = fakeCluster(() => ({ body: hitsOf('a') }));
    const gateway = gatewayOf(cluster);
    await gateway.search({ size: 1 }, { startedAt: performance.now() - REQUEST_TIMEOUT_MS / 2 });
    // Half the deadline already spent: the attempt gets at most the rest (a third kept back), not a full share.
    expect(cluster.calls[0]?.timeout).to.be.at.most(REQUEST_TIMEOUT_MS / 2);
    await gateway.search({ size: 1 }, { startedAt: performance.now() - REQUEST_TIMEOUT_MS });
    expect(cluster.calls[1]?.timeout).to.be.at.most(1);
  });

  describe('the client’s errors as the gateway’s own', () => {
    const cases: { answer: FakeAnswer; error: new (...args: never[]) => Error; reason?: string }[] = [
      {
        answer: failed(503, 'unavailable'),
        error: SearchUnavailableError,
        reason: 'answered HTTP 503',
      },
      {
        answer: failed(504, 'gateway'),
        error: SearchUnavailableError,
        reason: 'answered HTTP 504',
      },
      { answer: 'refused', error: SearchUnavailableError, reason: 'unreachable' },
      { answer: 'hang', error: SearchUnavailableError, reason: 'timed out' },
      {
        answer: failed(404, 'index_not_found_exception'),
        error: SearchUnavailableError,
        reason: 'index not found',
      },
      {
        answer: failed(429, 'es_rejected_execution_exception'),
        error: SearchOverloadedError,
      },
      { answer: failed(400, 'too_many_nested_clauses'), error: SearchTooLargeError },
    ];
    for (const { answer, error, reason } of cases) {
      const told =
        typeof answer === 'string'
          ? answer
          : `HTTP ${answer.status} ${(answer.body as { error: { type: string } }).error.type}`;
      it(`${told} → ${error.name}${reason ? ` (${reason})` : ''}`, async () => {
        const failure = await rejectionOf(gatewayOf(fakeCluster(() => answer)).search({}));
        expect(failure).to.be.instanceOf(error);
        if (reason) expect((failure as SearchUnavailableError).reason).to.equal(reason);
      });
    }

    it('any other error is passed on as it is (a bug: a 500)', async () => {
      const cluster = fakeCluster(() => failed(400, 'parsing_exception'));
      const failure = await rejectionOf(gatewayOf(cluster).search({}));
      expect(failure).to.have.property('name', 'ResponseError');
      expect(failure).to.have.property('statusCode', 400);
      expect(cluster.searches(), 'not tried again').to.have.length(1);
    });

    it('a 429 counts as a refusal in admission', async () => {
      const admission = new Admission({ maxLimit: 4, targetMs: 1000 });
      const cluster = fakeCluster(() => failed(429, 'es_rejected_execution_exception'));
      await rejectionOf(gatewayOf(cluster, admission).search({}));
      expect(admission.state().refused).to.equal(1);
    });
  });

  describe('another attempt on another node', () => {
    const nodes = ['node-a:9200', 'node-b:9200'];

    it('a node that refuses the connection: the search is sent to the other one', async () => {
      const cluster = fakeCluster((_call, index) => (index === 0 ? 'refused' : { body: hitsOf('x') }), nodes);
      const answer = await gatewayOf(cluster).search({});
      expect(answer.hits.hits.map((hit) => hit._id)).to.deep.equal(['x']);
      const [first, second] = cluster.searches();
      expect(cluster.searches()).to.have.length(2);
      expect(second?.node).to.not.equal(first?.node);
    });

    it('a node answering 503: tried again on the other one', async () => {
      const cluster = fakeCluster(
        (_call, index) => (index === 0 ? failed(503, 'unavailable') : { body: hitsOf('y') }),
        nodes,
      );
      expect((await gatewayOf(cluster).search({})).hits.hits[0]?._id).to.equal('y');
      expect(cluster.searches()).to.have.length(2);
    });

    it('a node that hangs and does not answer a ping: marked dead, the search retried elsewhere with the time left', async () => {
      const hung = (call: FakeCall) => call.node === cluster.searches()[0]?.node;
      const cluster: FakeCluster = fakeCluster(
        (call) => (hung(call) ? 'hang' : { body: hitsOf('z') }),
        nodes,
      );
      const gateway = gatewayOf(cluster, undefined, DEFAULT_REQUEST_TIMEOUT_MS);
      expect((await gateway.search({})).hits.hits[0]?._id).to.equal('z');
      const [first, retry] = cluster.searches();
      expect(
        cluster.calls.filter((call) => call.method === 'HEAD' && call.node === first?.node),
      ).to.have.length(1);
      expect(retry?.node).to.not.equal(first?.node);
      expect((retry?.timeout ?? 0) + (first?.timeout ?? 0)).to.be.at.most(DEFAULT_REQUEST_TIMEOUT_MS);
      // Out of the round robin: the next search goes to the other node at once.
      await gateway.search({});
      expect(cluster.searches()[2]?.node).to.equal(retry?.node);
    });

    it('a node that times out but answers a ping is busy: the search is not sent elsewhere', async () => {
      const cluster = fakeCluster((call) => (call.method === 'HEAD' ? {} : 'hang'), nodes);
      const failure = await rejectionOf(gatewayOf(cluster).search({}));
      expect(failure).to.be.instanceOf(SearchUnavailableError).with.property('reason', 'timed out');
      expect(cluster.searches()).to.have.length(1);
    });

    it('an error that is the search’s own (400) is not tried again', async () => {
      const cluster = fakeCluster(() => failed(400, 'too_many_clauses'), nodes);
      await rejectionOf(gatewayOf(cluster).search({}));
      expect(cluster.searches()).to.have.length(1);
    });
  });

  describe('admission', () => {
    it('a search refused by admission is never sent', async () => {
      const admission = new Admission({ maxLimit: 1, targetMs: 1000, maxQueued: 0 });
      const cluster = fakeCluster(() => ({ delayMs: 100, body: hitsOf('slow') }));
      const gateway = gatewayOf(cluster, admission);
      const first = gateway.search({});
      const refused = await rejectionOf(gateway.search({}));
      expect(refused).to.be.instanceOf(SearchOverloadedError).with.property('reason', 'queue full');
      expect((await first).hits.hits[0]?._id).to.equal('slow');
      expect(cluster.searches()).to.have.length(1);
    });

    it('an unqueued search (it holds a slot of its own) is sent whatever admission says', async () => {
      const admission = new Admission({ maxLimit: 1, targetMs: 1000, maxQueued: 0 });
      const cluster = fakeCluster(() => ({ delayMs: 50, body: hitsOf('n') }));
      const gateway = gatewayOf(cluster, admission);
      await Promise.all([gateway.search({}), gateway.search({}, { unqueued: true })]);
      expect(cluster.searches()).to.have.length(2);
    });
  });

  describe('a client that goes away', () => {
    it('aborts its search in flight, which is not tried again', async () => {
      const cluster = fakeCluster(() => 'hang', ['node-a:9200', 'node-b:9200']);
      const request = new AbortController();
      const search = withRequestSignal(request.signal, () => gatewayOf(cluster).search({}));
      setTimeout(() => request.abort(), 20);
      const started = performance.now();
      expect(await rejectionOf(search)).to.be.instanceOf(SearchAbandonedError);
      expect(performance.now() - started, 'ended on the abort, not the deadline').to.be.below(
        REQUEST_TIMEOUT_MS / 2,
      );
      expect(cluster.searches()).to.have.length(1);
      expect(cluster.searches()[0]?.signal?.aborted).to.equal(true);
    });

    it('gives up a search waiting for admission: it is never sent', async () => {
      const admission = new Admission({ maxLimit: 1, targetMs: 1000 });
      const cluster = fakeCluster(() => ({ delayMs: 100, body: hitsOf('first') }));
      const gateway = gatewayOf(cluster, admission);
      const first = gateway.search({});
      const request = new AbortController();
      const queued = withRequestSignal(request.signal, () => gateway.search({}));
      request.abort();
      expect(await rejectionOf(queued)).to.be.instanceOf(SearchAbandonedError);
      await first;
      expect(cluster.searches()).to.have.length(1);
    });

    it('an attempt’s own timeout does not abort the request’s other searches', async () => {
      const cluster = fakeCluster((call) => (call.method === 'HEAD' ? {} : 'hang'));
      const request = new AbortController();
      await rejectionOf(withRequestSignal(request.signal, () => gatewayOf(cluster).search({})));
      expect(cluster.searches()[0]?.signal).to.not.equal(request.signal);
      expect(request.signal.aborted).to.equal(false);
    });
  });

  describe('msearch', () => {
    it('sends the searches in one _msearch on the alias and answers them in order', async () => {
      const cluster = fakeCluster(() => ({
        body: {
          took: 1,
          responses: [
            { ...(hitsOf('one') as object), status: 200 },
            { ...(hitsOf('two') as object), status: 200 },
          ],
        },
      }));
      const answers = await gatewayOf(cluster).msearch([{ size: 1 }, { size: 2 }]);
      expect(answers.map((answer) => answer.hits.hits[0]?._id)).to.deep.equal(['one', 'two']);
      const [call] = cluster.searches();
      expect(call).to.include({ method: 'POST', path: '/ppas/_msearch' });
      expect(call?.body).to.deep.equal([{}, { size: 1 }, {}, { size: 2 }]);
    });

    it('one failed search fails them all, with the error its own search would have raised', async () => {
      const overloaded = fakeCluster(() => ({
        body: {
          took: 1,
          responses: [hitsOf('one'), failed(429, 'es_rejected_execution_exception').body],
        },
      }));
      expect(await rejectionOf(gatewayOf(overloaded).msearch([{}, {}]))).to.be.instanceOf(
        SearchOverloadedError,
      );
      const tooLarge = fakeCluster(() => ({
        body: { took: 1, responses: [failed(400, 'too_many_clauses').body] },
      }));
      expect(await rejectionOf(gatewayOf(tooLarge).msearch([{}]))).to.be.instanceOf(SearchTooLargeError);
    });

    it('a failed _msearch as a whole is mapped as a search is', async () => {
      const cluster = fakeCluster(() => failed(503, 'unavailable'));
      expect(await rejectionOf(gatewayOf(cluster).msearch([{}]))).to.be.instanceOf(SearchUnavailableError);
    });
  });

  describe('getDocument and searchChangeLog', () => {
    it('gets a document of the alias by id with the generation it came from, null when there is none', async () => {
      const found = fakeCluster(() => ({
        body: { _index: 'ppas-1', _id: 'x', found: true, _source: { slug: 'x' } },
      }));
      expect(await gatewayOf(found).getDocument(lookup('x'))).to.deep.equal({
        source: { slug: 'x' },
        index: 'ppas-1',
      });
      expect(found.calls[0]?.path).to.equal('/ppas/_doc/x');
      const missing = fakeCluster(() => ({
        status: 404,
        body: { _index: 'ppas-1', _id: 'y', found: false },
      }));
      expect(await gatewayOf(missing).getDocument(lookup('y'))).to.equal(null);
    });

    it('a missing index is the cluster unavailable, not a missing document', async () => {
      const cluster = fakeCluster(() => failed(404, 'index_not_found_exception'));
      const failure = await rejectionOf(gatewayOf(cluster).getDocument(lookup('x')));
      expect(failure).to.be.instanceOf(SearchUnavailableError).with.property('reason', 'index not found');
    });

    it('searches the change log beside the alias', async () => {
      const cluster = fakeCluster(() => ({ body: hitsOf('event') }));
      const answer = await gatewayOf(cluster).searchChangeLog({ size: 1 });
      expect(answer.hits.hits[0]?._id).to.equal('event');
      expect(cluster.calls[0]?.path).to.equal('/ppas-changes/_search');
    });
  });
});
