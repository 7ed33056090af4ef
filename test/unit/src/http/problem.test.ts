import { expect } from 'chai';
import {
  ALLOWED_METHODS,
  BadRequestError,
  GoneError,
  InternalServerError,
  MAX_PROBLEMS,
  MAX_QUERY_STRING_BYTES,
  MethodNotAllowedError,
  NotFoundError,
  OVERLOADED_PROBLEM_TYPE,
  OVERLOADED_RETRY_AFTER_SECONDS,
  OverloadedError,
  ProblemError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UriTooLongError,
} from '../../../../src/http/problem.js';

describe('http/problem: the typed errors a layer throws', () => {
  it('each carries its status, and only the outage and refusals ask the client to wait', () => {
    const statuses = [
      [new BadRequestError([{ name: 'page', reason: 'not a number' }]), 400],
      [new NotFoundError(), 404],
      [new MethodNotAllowedError('POST'), 405],
      [new GoneError('too old'), 410],
      [new UriTooLongError(3000), 414],
      [new TooManyRequestsError(7, 60, 60), 429],
      [new InternalServerError(), 500],
      [new ServiceUnavailableError(), 503],
      [new OverloadedError(), 503],
    ] as const;
    for (const [error, status] of statuses) {
      expect(error, error.constructor.name).to.be.instanceOf(ProblemError);
      expect(error.status, error.constructor.name).to.equal(status);
      const waits = 'Retry-After' in error.headers;
      expect(waits, error.constructor.name).to.equal(status === 429 || status === 503);
    }
  });

  it('a 400 names each bad parameter once, and lists at most MAX_PROBLEMS problems', () => {
    const params = Array.from({ length: MAX_PROBLEMS + 5 }, (_, i) => ({
      name: i % 2 === 0 ? 'q' : 'country',
      reason: `problem ${i}`,
    }));
    const error = new BadRequestError(params);
    expect(error.invalidParams).to.have.length(MAX_PROBLEMS);
    expect(error.invalidParams?.[0]).to.deep.equal({ name: 'q', reason: 'problem 0' });
    expect(error.detail).to.equal('Invalid parameters: q, country (and 5 more problems not listed)');
    expect(new BadRequestError(params.slice(0, 1)).detail).to.equal('Invalid parameters: q');
  });

  it('a 414 says the size sent and the bound', () => {
    const detail = new UriTooLongError(2049).detail;
    expect(detail).to.include('2049 bytes').and.to.include(`at most ${MAX_QUERY_STRING_BYTES}`);
  });

  it('a 429 asks to retry after the time the limiter said, and names the limit', () => {
    const error = new TooManyRequestsError(12, 60, 30);
    expect(error.headers).to.deep.equal({ 'Retry-After': '12' });
    expect(error.detail).to.include('60 requests per 30 seconds');
  });

  it('the overload refusal is told apart from the outage by its type and its wait', () => {
    const overloaded = new OverloadedError();
    const outage = new ServiceUnavailableError();
    expect(overloaded.type).to.equal(OVERLOADED_PROBLEM_TYPE);
    expect(outage.type).to.equal('about:blank');
    expect(overloaded.headers['Retry-After']).to.equal(String(OVERLOADED_RETRY_AFTER_SECONDS));
    expect(outage.headers['Retry-After']).to.equal('5');
    expect(new ServiceUnavailableError('index missing', 30).headers['Retry-After']).to.equal('30');
  });

  it('a 405 names the method and allows only the read methods', () => {
    const error = new MethodNotAllowedError('DELETE');
    expect(error.headers).to.deep.equal({ Allow: ALLOWED_METHODS });
    expect(ALLOWED_METHODS).to.equal('GET, HEAD, OPTIONS');
    expect(error.detail).to.match(/^DELETE is not supported/);
  });

  it('is an Error whose message is its detail', () => {
    const error = new NotFoundError('nothing here');
    expect(error).to.be.instanceOf(Error);
    expect([error.name, error.message, error.title]).to.deep.equal([
      'ProblemError',
      'nothing here',
      'Not Found',
    ]);
  });
});
