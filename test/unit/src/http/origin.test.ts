import { expect } from 'chai';
import { requestOrigin } from '../../../../src/http/origin.js';

describe('app http: the request origin for absolute links', () => {
  it('is the scheme and the Host the client sent', () => {
    expect(requestOrigin('http', 'api.example.org', '10.0.0.5:3000')).to.equal('http://api.example.org');
    expect(requestOrigin('https', 'API.example.org:8443', '10.0.0.5:3000')).to.equal(
      'https://API.example.org:8443',
    );
    expect(requestOrigin('http', '127.0.0.1:3999', '10.0.0.5:3000')).to.equal('http://127.0.0.1:3999');
    expect(requestOrigin('http', '[::1]:3000', '10.0.0.5:3000')).to.equal('http://[::1]:3000');
    expect(requestOrigin('http', 'api_1:3000', '10.0.0.5:3000')).to.equal('http://api_1:3000');
  });

  it('is the address the client connected to when the Host is missing or no host at all', () => {
    for (const host of [
      '',
      'a b',
      'evil.example/x?y#',
      'user@evil.example',
      'x:99999',
      'x:',
      '[zz]',
      'a\tb',
    ]) {
      expect(requestOrigin('http', host, '10.0.0.5:3000'), JSON.stringify(host)).to.equal(
        'http://10.0.0.5:3000',
      );
    }
  });

  it('only ever uses http or https', () => {
    expect(requestOrigin('javascript', 'x.org', '10.0.0.5:3000')).to.equal('http://x.org');
  });
});
