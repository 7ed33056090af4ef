// The gateway's own errors: each the problem a client is told.
import { expect } from 'chai';
import {
  SEARCH_RETRY_AFTER_SECONDS,
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from '../../../../src/gateway/searchErrors.js';

describe('gateway/searchErrors', () => {
  it('an outage is a 503 asking to retry, its reason kept for the log only', () => {
    const error = new SearchUnavailableError('timed out', { cause: new Error('x') });
    expect(error.status).to.equal(503);
    expect(error.headers).to.deep.equal({ 'Retry-After': String(SEARCH_RETRY_AFTER_SECONDS) });
    expect(error.message).to.equal('Elasticsearch timed out');
    expect(error.detail).to.not.include('timed out');
    expect(error.cause).to.be.instanceOf(Error);
  });

  it('a query too large is a 400 naming q; overload the overload problem; a client gone a 499', () => {
    const tooLarge = new SearchTooLargeError();
    expect(tooLarge.status).to.equal(400);
    expect(tooLarge.invalidParams?.map((param) => param.name)).to.deep.equal(['q']);
    const overloaded = new SearchOverloadedError('queue full');
    expect(overloaded.status).to.equal(503);
    expect(overloaded.type).to.match(/overloaded$/);
    expect(overloaded.message).to.equal('search not run: queue full');
    expect(new SearchAbandonedError().status).to.equal(499);
  });
});
