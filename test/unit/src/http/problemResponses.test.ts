// The pure parts of the app shell: entity tags, If-None-Match, and how errors become problems.
import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import {
  BadRequestError,
  MethodNotAllowedError,
  NotFoundError,
  ProblemError,
} from '../../../../src/http/problem.js';
import { problemBody, toProblem } from '../../../../src/http/problemResponses.js';
import { SearchTooLargeError, SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import { searchOutageReason } from '../../../../src/gateway/clientErrors.js';

function responseError(statusCode: number, type = 'some_exception'): errors.ResponseError {
  return new errors.ResponseError({
    body: { error: { type, reason: 'internal detail' }, status: statusCode },
    statusCode,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}

describe('app http: errors to problems', () => {
  it('keeps typed problems as they are', () => {
    const error = new NotFoundError();
    expect(toProblem(error)).to.equal(error);
  });

  it('maps the gateway’s outage (unreachable, timing out, overloaded, no alias) to 503 with Retry-After', () => {
    const outages = [
      new errors.ConnectionError('connect ECONNREFUSED 10.0.0.1:9200'),
      new errors.TimeoutError('Request timed out'),
      new errors.NoLivingConnectionsError('no living connections', {} as never),
      responseError(429),
      responseError(502),
      responseError(503),
      responseError(504),
      responseError(404, 'index_not_found_exception'),
    ];
    for (const error of outages) {
      const reason = searchOutageReason(error);
      expect(reason, error.message).to.be.a('string');
      const problem = toProblem(new SearchUnavailableError(reason!, { cause: error }));
      expect(problem.status).to.equal(503);
      expect(problem.headers['Retry-After']).to.match(/^\d+$/);
      expect(JSON.stringify(problemBody(problem))).not.to.match(
        /ECONNREFUSED|10\.0\.0\.1|internal detail|index_not/,
      );
    }
  });

  it('maps a query too large for Elasticsearch to a 400 naming q', () => {
    const problem = toProblem(new SearchTooLargeError({ cause: responseError(400, 'too_many_clauses') }));
    expect(problem.status).to.equal(400);
    expect(problemBody(problem).invalid_params?.map((param) => param.name)).to.deep.equal(['q']);
  });

  it('maps other Elasticsearch errors and anything unexpected to a bare 500', () => {
    for (const error of [
      responseError(400, 'parsing_exception'),
      new TypeError('x is undefined at /srv/app.js'),
      'a string',
    ]) {
      const problem = toProblem(error);
      expect(problem.status).to.equal(500);
      const body = JSON.stringify(problemBody(problem));
      expect(body).not.to.match(/parsing|undefined|srv|string/);
    }
  });

  it('shows client errors that Koa raises with their status', () => {
    const error = Object.assign(new Error('Malformed URI'), { status: 400, expose: true });
    const problem = toProblem(error);
    expect([problem.status, problem.detail]).to.deep.equal([400, 'Malformed URI']);
    const hidden = Object.assign(new Error('secret'), { status: 500, expose: false });
    expect(toProblem(hidden).status).to.equal(500);
  });

  it('writes RFC 9457 members, invalid_params, and extensions that never override them', () => {
    const bad = new BadRequestError([{ name: 'page', reason: 'must be >= 1' }]);
    expect(problemBody(bad, '/api/v1/ppas?page=0')).to.deep.equal({
      type: 'about:blank',
      title: 'Invalid request parameters',
      status: 400,
      detail: 'Invalid parameters: page',
      instance: '/api/v1/ppas?page=0',
      invalid_params: [{ name: 'page', reason: 'must be >= 1' }],
    });
    const custom = new ProblemError(503, 'Service Unavailable', 'down');
    Object.assign(custom.extensions, { status: 200, checks: { a: 1 } });
    expect(problemBody(custom)).to.deep.equal({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'down',
      checks: { a: 1 },
    });
  });

  it('answers 405 with Allow: GET, HEAD, OPTIONS', () => {
    expect(new MethodNotAllowedError('POST').headers).to.deep.equal({ Allow: 'GET, HEAD, OPTIONS' });
  });
});
