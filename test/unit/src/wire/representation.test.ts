import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { entityTag } from '../../../../src/wire/entityTag.js';
import {
  encodedBytes,
  identityBytes,
  jsonRepresentation,
  keptAs,
} from '../../../../src/wire/representation.js';

describe('api wire: representations', () => {
  const body = { data: Array.from({ length: 200 }, (_, i) => ({ slug: `ppa-${i}` })) };

  it('serializes once: the bytes hashed are the bytes sent', () => {
    const representation = jsonRepresentation(body, '<x>; rel="next"');
    const json = JSON.stringify(body);
    expect(identityBytes(representation).toString()).to.equal(json);
    expect(representation.etag).to.equal(entityTag(json));
    expect(representation.size).to.equal(Buffer.byteLength(json));
    expect(representation.link).to.equal('<x>; rel="next"');
  });

  it('kept in one form, it makes the others from it once, and says so each time it grows', () => {
    const kept = keptAs(jsonRepresentation(body), 'gzip');
    expect(kept.body).to.equal(undefined);
    expect(Object.keys(kept.encoded)).to.deep.equal(['gzip']);
    let grew = 0;
    const identity = identityBytes(kept, () => (grew += 1));
    expect(identity.toString()).to.equal(JSON.stringify(body));
    expect(identityBytes(kept, () => (grew += 1))).to.equal(identity);
    const br = encodedBytes(kept, 'br', () => (grew += 1));
    expect(encodedBytes(kept, 'br', () => (grew += 1))).to.equal(br);
    expect(grew).to.equal(2);
    expect(gunzipSync(kept.encoded.gzip!).toString()).to.equal(JSON.stringify(body));
  });

  it('keeping a form never changes the representation it was made from', () => {
    const original = jsonRepresentation(body);
    keptAs(original, 'br');
    expect(original.body).to.not.equal(undefined);
    expect(original.encoded).to.deep.equal({});
  });
});
