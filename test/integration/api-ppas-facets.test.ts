// Facets, country, slug and fields over the real app and Elasticsearch, against the plain-JavaScript oracle of
// test/support/sampleOracle.ts: every facet count is the total of the request that applies its value.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { FACET_NAMES, MAX_FACET_BUCKETS, type FacetName } from '../../src/params/facets.js';
import { COMBINED_FACET_BUCKETS } from '../../src/queries/facetAggregations.js';
import { readIndexDefinition } from '../../indexContract/mapping.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { PeerRates, peerLookup, peerRate } from '../../indexContract/flags.js';
import { ITEM_FIELDS } from '../../src/params/itemFields.js';
import { buildTestApp } from '../support/app.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { useSampleApp, type SampleApp } from '../support/sampleApp.js';
import { indexSample } from '../support/sampleIndex.js';
import { listed, records, sorted } from '../support/sampleOracle.js';
import { deleteIndices, uniqueName } from '../support/services.js';

interface Bucket {
  value: string | number;
  count: number;
}
type Facets = Partial<Record<FacetName, Bucket[]>>;

/** The parameter that applies one facet value: OR facets replace their own filter, risk_features adds one. */
function applying(facet: FacetName, value: string | number): [string, string] {
  if (facet === 'risk_features') return ['risk_features[]', String(value)];
  return [facet, String(facet === 'country' ? String(value).toLowerCase() : value)];
}

/**
 * Indexes `records` under a fresh alias, asks an app over it for each list query, and returns each answer's
 * meta.facets; the index, the app and the file are gone afterwards.
 */
async function facetsOfIndexed(
  client: SampleApp['client'],
  name: string,
  records: PpaRecord[],
  queries: string[],
): Promise<Facets[]> {
  const dir = await mkdtemp(join(tmpdir(), 'facets-'));
  const alias = uniqueName(name);
  const file = join(dir, 'records.ndjson');
  await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  const app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  try {
    await indexSample(client, alias, file);
    const answers: Facets[] = [];
    for (const query of queries) {
      const response = await fetch(`${app.url}/api/v1/ppas?${query}`);
      expect(response.status, query).to.equal(200);
      answers.push(((await response.json()) as { meta: { facets: Facets } }).meta.facets);
    }
    return answers;
  } finally {
    await app.close();
    await deleteIndices(client, alias);
    await rm(dir, { recursive: true, force: true });
  }
}

describe('GET /api/v1/ppas facets, country, slug and fields on the sample index', function () {
  this.timeout(120_000);
  const { app, client } = useSampleApp('api-facets');
  const { get, list, problem } = ppasApi(() => app().url);

  const scenarios = [
    '',
    'technology=solar_pv,wind&tariff=energy_only',
    'q=solar&country=ke,za,sn',
    'year=2018&risk_features[]=government_guarantee',
    'risk_features[]=take_or_pay&min_capacity=20&technology=hydro,solar_pv',
  ];

  for (const scenario of scenarios) {
    it(`every bucket's count is the total of the request that applies it (${scenario || 'no filter'})`, async () => {
      const base = new URLSearchParams(scenario);
      base.set('facets', FACET_NAMES.join(','));
      base.set('per_page', '5');
      const body = await list(base.toString());
      const facets = body.meta.facets as Facets;
      expect(Object.keys(facets).sort()).to.deep.equal([...FACET_NAMES].sort());
      // The page itself is the same as without facets (the post_filter still applies every filter).
      const plain = new URLSearchParams(scenario);
      plain.set('per_page', '5');
      const without = await list(plain.toString());
      expect(body.meta.total).to.equal(without.meta.total);
      expect(body.data.map((item) => item.slug)).to.deep.equal(without.data.map((item) => item.slug));

      let checked = 0;
      for (const facet of FACET_NAMES) {
        for (const bucket of facets[facet] ?? []) {
          const params = new URLSearchParams(scenario);
          const [name, value] = applying(facet, bucket.value);
          if (name === 'risk_features[]') params.append(name, value);
          else params.set(name, value);
          params.set('per_page', '1');
          const answer = await list(params.toString());
          expect(answer.meta.total, `${facet}=${bucket.value} under ${scenario}`).to.equal(bucket.count);
          checked++;
        }
      }
      if (scenario === '') expect(checked).to.be.greaterThan(50);
    });
  }

  it('orders buckets by count descending then value ascending; years newest first; no bucket for missing values', async () => {
    const body = await list(`facets=${FACET_NAMES.join(',')}`);
    const facets = body.meta.facets as Facets;
    for (const facet of ['technology', 'tariff', 'country', 'risk_features'] as const) {
      const buckets = facets[facet] ?? [];
      const expected = [...buckets].sort(
        (a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
      );
      expect(buckets, facet).to.deep.equal(expected);
    }
    const years = (facets.year ?? []).map((bucket) => bucket.value as number);
    expect(years).to.deep.equal([...years].sort((a, b) => b - a));
    // The oracle: counts over every listed record, and no null bucket.
    const byTechnology = new Map<string, number>();
    for (const record of listed)
      byTechnology.set(record.technology, (byTechnology.get(record.technology) ?? 0) + 1);
    expect(Object.fromEntries((facets.technology ?? []).map((b) => [b.value, b.count]))).to.deep.equal(
      Object.fromEntries(byTechnology),
    );
    const withCountry = listed.filter((record) => record.country_code).length;
    expect((facets.country ?? []).reduce((sum, bucket) => sum + bucket.count, 0)).to.equal(withCountry);
  });

  it('unknown facet names are 400 naming facets; without facets there is no meta.facets', async () => {
    expect(paramNames(await problem('/api/v1/ppas?facets=technology,developer'))).to.deep.equal(['facets']);
    expect((await list('per_page=1')).meta).to.not.have.property('facets');
  });

  it('country: exactly the oracle’s records, any case, several joined by ","', async () => {
    const countries = [...new Set(listed.map((record) => record.country_code).filter(Boolean))].slice(
      0,
      3,
    ) as string[];
    const query = `country=${countries.map((code, i) => (i === 0 ? code.toLowerCase() : code)).join(',')}&per_page=100&sort=name_asc`;
    const body = await list(query);
    const expected = sorted(
      listed.filter((record) => countries.includes(record.country_code ?? '')),
      'name_asc',
    );
    expect(body.meta.total).to.equal(expected.length);
    expect(body.data.map((item) => item.slug)).to.deep.equal(expected.slice(0, 100));
    const stats = (await get(`/api/v1/ppas/statistics?country=${countries.join(',')}`)).body as {
      data: { totals: { ppas: number } };
    };
    expect(stats.data.totals.ppas).to.equal(expected.length);
  });

  it('slug: only published and active ones of those named, in the requested order', async () => {
    const live = listed.slice(0, 4).map((record) => record.slug);
    const inactive = records.find((record) => record.published && !record.active)?.slug ?? '';
    const unpublished = records.find((record) => !record.published)?.slug ?? '';
    expect(inactive).to.not.equal('');
    expect(unpublished).to.not.equal('');
    const body = await list(
      `slug=${[...live, inactive, unpublished, 'no-such-ppa'].join(',')}&sort=capacity_desc`,
    );
    expect(body.data.map((item) => item.slug)).to.deep.equal(
      sorted(
        listed.filter((record) => live.includes(record.slug)),
        'capacity_desc',
      ),
    );
    const hundredOne = Array.from({ length: 101 }, (_, i) => `ppa-${i}`).join(',');
    expect(paramNames(await problem(`/api/v1/ppas?slug=${hundredOne}`))).to.deep.equal(['slug']);
  });

  it('fields: each item has only those, plus slug and url, with the same values as the full item', async () => {
    const full = await list('per_page=10&sort=name_asc');
    const narrow = await list('per_page=10&sort=name_asc&fields=capacity_mw,project_name');
    expect(narrow.data).to.have.length(10);
    narrow.data.forEach((item, index) => {
      const whole = full.data[index] ?? { slug: '' };
      expect(Object.keys(item).sort()).to.deep.equal(['capacity_mw', 'project_name', 'slug', 'url']);
      expect(item).to.deep.equal({
        slug: whole.slug,
        project_name: whole.project_name,
        capacity_mw: whole.capacity_mw,
        url: whole.url,
      });
    });
    const every = await list(`per_page=3&fields=${ITEM_FIELDS.join(',')}`);
    expect(Object.keys(every.data[0] ?? {}).sort()).to.deep.equal([...ITEM_FIELDS, 'url'].sort());
    expect(paramNames(await problem('/api/v1/ppas?fields=project_name,offtaker'))).to.deep.equal(['fields']);
  });

  it(`caps a facet at ${MAX_FACET_BUCKETS} buckets: the largest counts, then the lowest values`, async () => {
    // 60 countries: the sample's first 60 live records, each given its own code, and 3 more for the first country.
    const code = (i: number) =>
      `${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;
    const base = listed.slice(0, 63);
    const source = base.map((record, i): PpaRecord => ({ ...record, country_code: code(i < 60 ? i : 59) }));
    // Alone, and counted together with another facet (one aggregation for both).
    const [alone, together] = await facetsOfIndexed(client, 'api-facets-cap', source, [
      'facets=country&per_page=1',
      'facets=country,technology&per_page=1',
    ]);
    const countries = alone!.country ?? [];
    expect(countries).to.have.length(MAX_FACET_BUCKETS);
    expect(countries[0]).to.deep.equal({ value: code(59), count: 4 });
    expect(countries.slice(1).map((bucket) => bucket.value)).to.deep.equal(
      Array.from({ length: MAX_FACET_BUCKETS - 1 }, (_, i) => code(i)),
    );
    expect(together!.country).to.deep.equal(countries);
  });

  it(`counts exactly past ${COMBINED_FACET_BUCKETS} values of facets counted together (one aggregation per facet then)`, async () => {
    // Every record its own technology (more values than the combined aggregation holds), one record the only
    // one of its year: a combined count cut at its bucket limit would lose that year (count 1, its keyword after
    // every "technology:…" one), so the answer shows whether the counts were asked again one facet at a time.
    const count = COMBINED_FACET_BUCKETS + 100;
    const source = Array.from({ length: count }, (_, i): PpaRecord => {
      const record = listed[i % listed.length]!;
      return {
        ...record,
        slug: `many-values-${i}`,
        reference_code: `MANY-${i}`,
        technology: `tech_${String(i).padStart(5, '0')}`,
        financial_close_year: i === count - 1 ? 2099 : record.financial_close_year,
      };
    });
    const [facets] = await facetsOfIndexed(client, 'api-facets-many', source, [
      'facets=technology,year&per_page=1',
    ]);
    const years = new Map<number, number>();
    for (const record of source) {
      const year = record.financial_close_year;
      if (year != null) years.set(year, (years.get(year) ?? 0) + 1);
    }
    const expectedYears = [...years]
      .sort(([a], [b]) => b - a)
      .slice(0, MAX_FACET_BUCKETS)
      .map(([value, n]) => ({ value, count: n }));
    expect(facets!.year?.[0]).to.deep.equal({ value: 2099, count: 1 });
    expect(facets!.year).to.deep.equal(expectedYears);
    expect(facets!.technology).to.deep.equal(
      source.slice(0, MAX_FACET_BUCKETS).map((record) => ({ value: record.technology, count: 1 })),
    );
  });

  it('answers the same facets from an index written before facet_values existed (each facet counted alone)', async () => {
    // The sample's documents without facet_values, in an index whose mapping lacks it: what an API of this
    // version finds until the first reindex after it is deployed.
    const alias = uniqueName('api-facets-older');
    const index = `${alias}-1`;
    const definition = readIndexDefinition();
    const properties = definition.mappings.properties!;
    delete properties.facet_values;
    // Flagged with the fences a reindex of the sample computes (indexContract/flags.ts).
    const rates = new PeerRates();
    for (const record of records) rates.add(peerRate(record));
    const peers = peerLookup(rates.fences(new Date().toISOString()));
    const docs = records
      .filter((record) => record.published)
      .map((record) => {
        const { facet_values: _dropped, ...older } = buildDocument(record, peers);
        return older;
      });
    await client.indices.create({ index, settings: definition.settings, mappings: definition.mappings });
    await client.bulk({
      refresh: true,
      operations: docs.flatMap((doc) => [{ index: { _index: index, _id: doc.slug } }, doc]),
    });
    await client.indices.putAlias({ index, name: alias });
    const older = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
    try {
      for (const scenario of scenarios) {
        const params = new URLSearchParams(scenario);
        params.set('facets', FACET_NAMES.join(','));
        const current = (await list(params.toString())).meta.facets as Facets;
        const response = await fetch(`${older.url}/api/v1/ppas?${params.toString()}`);
        const body = (await response.json()) as { meta: { facets: Facets } };
        expect(body.meta.facets, scenario).to.deep.equal(current);
        expect(body.meta.facets.technology, scenario).to.have.length.above(0);
      }
    } finally {
      await older.close();
      await deleteIndices(client, alias);
    }
  });
});
