// Elasticsearch's failures in an operator's words: which URL, why, in one line, what to check.
import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import {
  ElasticsearchError,
  elasticsearchFailure,
} from '../../../../indexer/elasticsearch/elasticsearchErrors.js';

const nodes = ['http://es-1:9200', 'http://es-2:9200'];
const response = (statusCode: number, body: unknown) =>
  new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });

describe('indexer/elasticsearch/elasticsearchErrors', () => {
  it('names the nodes of a connection that failed or timed out', () => {
    const unreachable = elasticsearchFailure(new errors.ConnectionError('ECONNREFUSED'), nodes)!;
    expect(unreachable.message).to.equal(
      'Elasticsearch at http://es-1:9200, http://es-2:9200 cannot be reached (ECONNREFUSED)',
    );
    expect(unreachable.hint).to.include('ES_URL');
    expect(elasticsearchFailure(new errors.TimeoutError('t'), nodes)!.message).to.include(
      'did not answer in time',
    );
  });

  it('gives a refusal its status and reason on one line; a 401 or 403 points at the credentials', () => {
    const refused = elasticsearchFailure(
      response(400, { error: { type: 'mapper_parsing_exception', reason: 'bad' } }),
      nodes,
    )!;
    expect(refused.message).to.include('refused a request: 400 mapper_parsing_exception: bad');
    expect(elasticsearchFailure(response(403, { error: 'forbidden' }), nodes)!.hint).to.include('ES_API_KEY');
  });

  it('leaves an error that is not the client’s, and keeps one already said', () => {
    expect(elasticsearchFailure(new Error('bug'), nodes)).to.equal(null);
    const said = new ElasticsearchError('x', 'y', { cause: null });
    expect(elasticsearchFailure(said, nodes)).to.equal(said);
    expect(said.exitCode).to.equal(3);
  });
});
