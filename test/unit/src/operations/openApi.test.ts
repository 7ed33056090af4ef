// The OpenAPI document passes the linters its readers run: Redocly's recommended ruleset and Spectral's
// spectral:oas, with no errors and no warnings (both through their libraries, the same rules as their CLIs).
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { expect } from 'chai';
import { buildOpenApiSpec } from '../../../../src/operations/openApi.js';

const variants = {
  'without PUBLIC_BASE_URL': buildOpenApiSpec(),
  'with PUBLIC_BASE_URL': buildOpenApiSpec({ publicBaseUrl: 'https://api.example.org/ppa' }),
};

describe('openapi: linters', function () {
  this.timeout(30_000);

  for (const [name, spec] of Object.entries(variants)) {
    it(`redocly recommended: no problem at all (${name})`, async () => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({
        source: JSON.stringify(spec),
        absoluteRef: 'openapi.json',
        config,
      });
      const found = problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`,
      );
      expect(found).to.deep.equal([]);
    });

    it(`spectral:oas: no problem at all (${name})`, async () => {
      const spectral = new Spectral();
      spectral.setRuleset({ extends: [oas] } as unknown as Parameters<Spectral['setRuleset']>[0]);
      const results = await spectral.run(new Document(JSON.stringify(spec), Json, 'openapi.json'));
      expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).to.deep.equal([]);
    });
  }
});
