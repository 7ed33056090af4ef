import { expect } from 'chai';
import { NotFoundError } from '../../../../src/http/problem.js';
import { problemsOf } from '../../../support/problems.js';
import { isWellFormedSlug, parseDetailRequest } from '../../../../src/params/detail.js';

describe('api params: detail', () => {
  it('a well-formed slug passes; any query parameter is unknown', () => {
    expect(parseDetailRequest('kahone-solar', '')).to.equal('kahone-solar');
    expect(problemsOf(() => parseDetailRequest('kahone-solar', 'q=1&x='))).to.deep.equal([
      { name: 'q', reason: 'unknown parameter' },
      { name: 'x', reason: 'unknown parameter' },
    ]);
  });

  it('a malformed slug is a 404, like an unknown one', () => {
    for (const slug of [
      'Kahone-Solar',
      'kahone--solar',
      '-kahone',
      'kahone_solar',
      '',
      'a'.repeat(121),
      'é',
    ]) {
      expect(isWellFormedSlug(slug), slug).to.equal(false);
      expect(() => parseDetailRequest(slug, '')).to.throw(NotFoundError);
    }
    expect(isWellFormedSlug('a'.repeat(120))).to.equal(true);
  });
});
