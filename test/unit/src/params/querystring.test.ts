import { expect } from 'chai';
import { canonicalQueryString } from '../../../../src/params/querystring.js';

describe('api params: canonical query string', () => {
  it('orders parameters by name, keeps repeats in order, drops blanks and stray &', () => {
    expect(canonicalQueryString('technology=wind&&q=solar&page=&fields=slug&fields=name&q=+')).to.equal(
      'fields=slug&fields=name&q=solar&technology=wind',
    );
    expect(canonicalQueryString('q=solar&technology=wind')).to.equal(
      canonicalQueryString('technology=wind&page=%20&q=solar'),
    );
  });

  it('keeps each part as sent (encoding included)', () => {
    expect(canonicalQueryString('q=S%C3%A3o+Paulo&risk_features[]=a')).to.equal(
      'q=S%C3%A3o+Paulo&risk_features[]=a',
    );
  });
});
