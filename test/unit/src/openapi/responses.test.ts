// openapi/responses: the pieces every operation's entry in the OpenAPI document shares. Checked on what each
// promises: which headers an answer names (every answer's four, the rate limit's unless the answer is not counted),
// the answers every /api/v1 operation may give, and the problem body's schema.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { OVERLOADED_PROBLEM_TYPE } from '../../../../src/http/problem.js';
import {
  apiResponses,
  badRequest,
  EVERY_ANSWER,
  headerRefs,
  json,
  problem,
  ProblemSchema,
  RATE_LIMIT_HEADERS,
  RESPONSE_HEADERS,
  withoutSuccess,
} from '../../../../src/openapi/responses.js';

const headersOf = (response: { headers?: Record<string, unknown> }) => Object.keys(response.headers ?? {});

describe('openapi/responses: what the operations of the document share', () => {
  it('names every header it refers to among the components, each with a description and a schema', () => {
    for (const name of [...EVERY_ANSWER, ...RATE_LIMIT_HEADERS]) {
      expect(RESPONSE_HEADERS[name].description, name).to.be.a('string').and.not.equal('');
      expect(RESPONSE_HEADERS[name].schema, name).to.have.property('type');
    }
    expect(headerRefs(['ETag', 'Allow'])).to.deep.equal({
      ETag: { $ref: '#/components/headers/ETag' },
      Allow: { $ref: '#/components/headers/Allow' },
    });
  });

  it('a JSON body refers to its component schema', () => {
    expect(json('PpaList')).to.deep.equal({
      'application/json': { schema: { $ref: '#/components/schemas/PpaList' } },
    });
  });

  it('a problem answer is problem+json, with the rate limit headers (unless not counted), every answer’s, and its own', () => {
    const counted = problem('Too many.', ['Retry-After']);
    expect(counted.content).to.deep.equal({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    });
    expect(headersOf(counted)).to.deep.equal([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, 'Retry-After']);
    expect(headersOf(problem('Not counted.', [], false))).to.deep.equal(EVERY_ANSWER);
    expect(badRequest.description).to.include('invalid_params');
  });

  it('every /api/v1 operation may answer 200, 304, 405, 414, 429, 500 and 503, with its own answers among them', () => {
    const responses = apiResponses(
      { description: 'The list.', schema: 'PpaList', link: true },
      { '400': badRequest },
    );
    expect(Object.keys(responses)).to.have.members(['200', '304', '400', '405', '414', '429', '500', '503']);
    expect(responses['200']!.content).to.deep.equal(json('PpaList'));
    expect(headersOf(responses['200']!)).to.include.members([
      'ETag',
      'Cache-Control',
      'Link',
      ...RATE_LIMIT_HEADERS,
    ]);
    expect(responses['304']!.content, '304 has no body').to.equal(undefined);
    expect(headersOf(responses['405']!)).to.include('Allow');
    expect(headersOf(responses['429']!)).to.include('Retry-After');
  });

  it('a 503 says both of its kinds, and carries no rate limit header (a refusal at capacity is not counted)', () => {
    const unavailable = apiResponses({ description: 'x', schema: 'X' })['503']!;
    expect(unavailable.description).to.include(OVERLOADED_PROBLEM_TYPE).and.include('Service Unavailable');
    expect(headersOf(unavailable)).to.deep.equal([...EVERY_ANSWER, 'Retry-After']);
  });

  it('links only the operations that say they page', () => {
    expect(headersOf(apiResponses({ description: 'x', schema: 'X' })['200']!)).to.not.include('Link');
  });

  it('withoutSuccess keeps the error answers alone (an export has its own 200 and no ETag, so no 304)', () => {
    const errors = withoutSuccess(apiResponses({ description: 'x', schema: 'X' }, { '400': badRequest }));
    expect(Object.keys(errors)).to.have.members(['400', '405', '414', '429', '500', '503']);
  });

  it('the problem schema takes an RFC 9457 body with invalid_params, and refuses one without its members', () => {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    const valid = ajv.compile(ProblemSchema);
    const body = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'page must be at least 1',
      instance: '/api/v1/ppas?page=0',
      invalid_params: [{ name: 'page', reason: 'must be at least 1' }],
    };
    expect(valid(body), JSON.stringify(valid.errors)).to.equal(true);
    expect(valid({ ...body, status: 200 }), 'a status that is not an error').to.equal(false);
    expect(valid({ ...body, invalid_params: [] }), 'invalid_params, when sent, names one at least').to.equal(
      false,
    );
    const { detail: _detail, ...withoutDetail } = body;
    expect(valid(withoutDetail), 'detail is required').to.equal(false);
  });
});
