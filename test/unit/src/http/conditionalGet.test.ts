import { expect } from 'chai';
import { entityTag, ifNoneMatchMatches } from '../../../../src/http/conditionalGet.js';

describe('app http: conditional GET helpers', () => {
  it('gives the same strong tag for the same bytes and another for other bytes', () => {
    const tag = entityTag('{"a":1}');
    expect(tag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    expect(entityTag('{"a":1}')).to.equal(tag);
    expect(entityTag('{"a":2}')).not.to.equal(tag);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(ifNoneMatchMatches('"x"', '"x"')).to.equal(true);
    expect(ifNoneMatchMatches('"a", "x"', '"x"')).to.equal(true);
    expect(ifNoneMatchMatches('W/"x"', '"x"')).to.equal(true);
    expect(ifNoneMatchMatches('*', '"x"')).to.equal(true);
    expect(ifNoneMatchMatches('"y"', '"x"')).to.equal(false);
    expect(ifNoneMatchMatches('', '"x"')).to.equal(false);
    expect(ifNoneMatchMatches('x', '"x"')).to.equal(false);
  });
});
