import { expect } from 'chai';
import { API_PREFIX, apiPath, isApiPath } from '../../../../src/http/apiPath.js';

describe('http/apiPath: the one API prefix', () => {
  it('puts a path under the prefix', () => {
    expect(apiPath('/ppas')).to.equal('/api/v1/ppas');
    expect(apiPath('')).to.equal(API_PREFIX);
  });

  it('knows the prefix and the paths under it, in any case (the routers match without case)', () => {
    for (const path of ['/api/v1', '/api/v1/', '/api/v1/ppas', '/API/V1/PPAS', '/Api/v1/ppas/x/y']) {
      expect(isApiPath(path), path).to.equal(true);
    }
  });

  it('does not take a path that only starts with the same letters', () => {
    for (const path of ['/api/v10', '/api/v1x/ppas', '/api', '/', '/health/live', '/x/api/v1/ppas', '']) {
      expect(isApiPath(path), path).to.equal(false);
    }
  });
});
