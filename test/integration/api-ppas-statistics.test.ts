// The statistics endpoint over the real app, a real Elasticsearch and the shipped sample, checked against the plain-JavaScript
// oracle of test/support/sampleOracle.ts.
import { expect } from 'chai';
import { ppasApi, paramNames } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { oracle, statisticsOracle, type Filters } from '../support/sampleOracle.js';

describe('GET /api/v1/ppas/statistics on the sample index', function () {
  this.timeout(120_000);
  const { app, client, alias } = useSampleApp('api-stats');
  const { get, problem } = ppasApi(() => app().url);

  describe('statistics equal the same numbers computed from the sample', () => {
    const cases: [string, Filters][] = [
      ['', {}],
      ['technology=solar_pv', { technology: ['solar_pv'] }],
      ['risk_features[]=government_guarantee&min_capacity=10', { risk: ['government_guarantee'], min: 10 }],
      [
        'tariff=energy_only,feed_in_tariff&max_capacity=50',
        { tariff: ['energy_only', 'feed_in_tariff'], max: 50 },
      ],
      ['developer=power&year=2010', { developer: 'power', year: 2010 }],
      ['technology=nuclear_fusion', { technology: ['nuclear_fusion'] }],
    ];
    for (const [query, filters] of cases) {
      it(`?${query || '(none)'}`, async () => {
        const response = await get(`/api/v1/ppas/statistics?${query}`);
        expect(response.status).to.equal(200);
        const body = response.body as { data: { flags: unknown[] }; meta: { generated_at: string } };
        // The red flags' topic has its own oracle (api-flags.test.ts): here, one entry per code.
        const { flags, ...topics } = body.data;
        expect(flags).to.have.length(9);
        expect(topics).to.deep.equal(statisticsOracle(oracle(filters)));
        expect(body.meta.generated_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
      });
    }

    it('generated_at is the build time of the live index, the same for every subset', async () => {
      const index = Object.keys(await client.indices.getAlias({ name: alias }))[0] ?? '';
      const stamp = /-(\d{4})(\d\d)(\d\d)t(\d\d)(\d\d)(\d\d)(\d{3})z$/.exec(index);
      expect(stamp).to.not.equal(null);
      const [, y, mo, d, h, mi, s, ms] = stamp ?? [];
      const expected = `${y}-${mo}-${d}T${h}:${mi}:${s}${ms === '000' ? '' : `.${ms}`}Z`;
      for (const query of ['', 'technology=nuclear_fusion']) {
        const body = (await get(`/api/v1/ppas/statistics?${query}`)).body as {
          meta: { generated_at: string };
        };
        expect(body.meta.generated_at).to.equal(expected);
      }
    });
  });

  describe('bad input answers 400 naming every problem', () => {
    it('statistics: page, per_page and sort are not parameters there; filters are checked the same way', async () => {
      expect(
        paramNames(await problem('/api/v1/ppas/statistics?page=1&per_page=10&sort=recent')),
      ).to.deep.equal(['page', 'per_page', 'sort']);
      expect(
        paramNames(await problem('/api/v1/ppas/statistics?year=1800&min_capacity=5&max_capacity=1&x=1')),
      ).to.deep.equal(['min_capacity', 'x', 'year']);
    });
  });
});
