// What an error of the Elasticsearch client means, and that error as the gateway's own.
import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import {
  admissionOutcome,
  attemptFailure,
  isQueryTooLarge,
  isRejectedForLoad,
  msearchItemError,
  searchError,
  searchOutageReason,
} from '../../../../src/gateway/clientErrors.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from '../../../../src/gateway/searchErrors.js';

const response = (statusCode: number, body: unknown = {}) =>
  new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });

describe('gateway/clientErrors', () => {
  it('reads an outage: unreachable, timing out, an error status, the alias missing; anything else is not one', () => {
    expect(searchOutageReason(new errors.TimeoutError('t'))).to.equal('timed out');
    expect(searchOutageReason(new errors.ConnectionError('c'))).to.equal('unreachable');
    expect(searchOutageReason(response(503))).to.equal('answered HTTP 503');
    expect(searchOutageReason(response(404, { error: { type: 'index_not_found_exception' } }))).to.equal(
      'index not found',
    );
    expect(searchOutageReason(response(404, { error: { type: 'other' } }))).to.equal(undefined);
    expect(searchOutageReason(new Error('bug'))).to.equal(undefined);
  });

  it('tells a query too large and a rejection for load', () => {
    expect(isQueryTooLarge(response(400, { error: { type: 'too_many_clauses' } }))).to.equal(true);
    expect(isQueryTooLarge(response(400, { error: { type: 'parsing_exception' } }))).to.equal(false);
    expect(isRejectedForLoad(response(429))).to.equal(true);
    expect(isRejectedForLoad(response(503))).to.equal(false);
  });

  it('tells admission and the attempts what an ended search means', () => {
    expect(admissionOutcome(new errors.TimeoutError('t'))).to.equal('dropped');
    expect(admissionOutcome(new SearchAbandonedError())).to.equal('skip');
    expect(admissionOutcome(new Error('x'))).to.equal('sample');
    expect(attemptFailure(new errors.TimeoutError('t'))).to.equal('timeout');
    expect(attemptFailure(new errors.ConnectionError('c'))).to.equal('node');
    expect(attemptFailure(response(502))).to.equal('node');
    expect(attemptFailure(response(400))).to.equal('other');
  });

  it('turns the client’s errors into the gateway’s own, a rejection counted by admission', () => {
    let refusals = 0;
    const admission = { noteRefusal: () => refusals++ } as never;
    expect(searchError(new errors.TimeoutError('t'))).to.be.instanceOf(SearchUnavailableError);
    expect(searchError(response(429), admission)).to.be.instanceOf(SearchOverloadedError);
    expect(refusals).to.equal(1);
    expect(searchError(response(400, { error: { type: 'too_many_clauses' } }))).to.be.instanceOf(
      SearchTooLargeError,
    );
    const bug = new Error('bug');
    expect(searchError(bug)).to.equal(bug);
  });

  it('makes a failed _msearch item the error its own search would have raised', () => {
    const error = msearchItemError({ error: { type: 'index_not_found_exception' }, status: 404 });
    expect(error.statusCode).to.equal(404);
    expect(searchOutageReason(error)).to.equal('index not found');
  });
});
