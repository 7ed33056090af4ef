import { expect } from 'chai';
import { entityTag, ifNoneMatchMatches, serialized } from '../../../../src/http/conditionalGet.js';

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

  it('serializes a frozen body once, any other body every time', () => {
    let calls = 0;
    const body = (value: number) => ({ value, toJSON: () => (calls++, { value }) });
    const frozen = Object.freeze(body(1));
    expect(serialized(frozen)).to.deep.equal({ json: '{"value":1}', etag: entityTag('{"value":1}') });
    expect(serialized(frozen).json).to.equal('{"value":1}');
    expect(calls).to.equal(1);
    const plain = body(2);
    serialized(plain);
    serialized(plain);
    expect(calls).to.equal(3);
  });
});
