import { expect } from 'chai';
import {
  encodedTag,
  entityTag,
  ifNoneMatchMatches,
  withoutEncoding,
} from '../../../../src/wire/entityTag.js';

describe('api wire: entity tags', () => {
  it('gives the same strong tag for the same bytes and another for other bytes', () => {
    const tag = entityTag('{"a":1}');
    expect(tag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    expect(entityTag('{"a":1}')).to.equal(tag);
    expect(entityTag(Buffer.from('{"a":1}'))).to.equal(tag);
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

  it('tags an encoded form apart, and matches it weakly against its content', () => {
    expect(encodedTag('"x"', 'gzip')).to.equal('"x-gzip"');
    expect(withoutEncoding('"x-br"')).to.equal('"x"');
    expect(ifNoneMatchMatches('"x-gzip"', '"x"')).to.equal(true);
    expect(ifNoneMatchMatches('"y-gzip"', '"x"')).to.equal(false);
  });
});
