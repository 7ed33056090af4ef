// The list endpoint over the real app, a real Elasticsearch and the shipped sample, checked against the plain-JavaScript
// oracle of test/support/sampleOracle.ts.
import { expect } from 'chai';
import { foldText } from '../../indexContract/text/fold.js';
import { ppasApi, paramNames, parseLinkHeader, withoutNulls, type ListBody } from '../support/ppasApi.js';
import { buildTestApp } from '../support/app.js';
import { useSampleApp } from '../support/sampleApp.js';
import { records, listed, oracle, sorted, SORT_ORACLE, type Filters } from '../support/sampleOracle.js';
import { within } from '../support/within.js';

describe('GET /api/v1/ppas on the sample index', function () {
  this.timeout(120_000);
  const { app, alias } = useSampleApp('api-list');
  const { get, list, walk, problem } = ppasApi(() => app().url);

  describe('filters give exactly the records the oracle gives', () => {
    const technologies = [...new Set(listed.map((r) => r.technology))].sort();
    const tariffs = [...new Set(listed.map((r) => r.tariff))].sort();
    const risks = [...new Set(listed.flatMap((r) => r.risk_features ?? []))].sort();
    const years = [
      ...new Set(listed.map((r) => r.financial_close_year).filter((y) => typeof y === 'number')),
    ];
    const capacity = listed.map((r) => r.capacity_mw).sort((a, b) => a - b);
    const at = (fraction: number) => capacity[Math.floor(fraction * (capacity.length - 1))] ?? 0;

    const cases: [string, Filters][] = [
      ['', {}],
      ...technologies.map((t): [string, Filters] => [`technology=${t}`, { technology: [t] }]),
      ['technology=SOLAR_PV,%20wind', { technology: ['solar_pv', 'wind'] }],
      ['technology=solar_pv,nuclear_fusion', { technology: ['solar_pv', 'nuclear_fusion'] }],
      ['technology=nuclear_fusion', { technology: ['nuclear_fusion'] }],
      ...tariffs.map((t): [string, Filters] => [`tariff=${t}`, { tariff: [t] }]),
      [`tariff=${tariffs[0]},${tariffs[1]}`, { tariff: [tariffs[0] ?? '', tariffs[1] ?? ''] }],
      ['developer=LAKOWA', { developer: 'LAKOWA' }],
      ['developer=%C5%82%C4%85kowa%20energia', { developer: 'łąkowa energia' }],
      ['developer=%20cote%20lumiere%20', { developer: 'cote lumiere' }],
      ['developer=AEROVIND', { developer: 'AEROVIND' }],
      ['developer=power%20%2F%20', { developer: 'power / ' }],
      ['developer=s.a.', { developer: 's.a.' }],
      ['developer=*', { developer: '*' }],
      ['developer=%3F', { developer: '?' }],
      ['developer=nobody%20at%20all', { developer: 'nobody at all' }],
      ...years.slice(0, 5).map((y): [string, Filters] => [`year=${y}`, { year: y as number }]),
      ['year=1900', { year: 1900 }],
      ...risks.map((f): [string, Filters] => [`risk_features[]=${f}`, { risk: [f] }]),
      [
        'risk_features[]=take_or_pay&risk_features=government_guarantee',
        { risk: ['take_or_pay', 'government_guarantee'] },
      ],
      [
        'risk_features=take_or_pay,change_in_law_protection',
        { risk: ['take_or_pay', 'change_in_law_protection'] },
      ],
      ['risk_features[]=take_or_pay&risk_features[]=take_or_pay', { risk: ['take_or_pay'] }],
      [`min_capacity=${at(0.5)}`, { min: at(0.5) }],
      [`max_capacity=${at(0.25)}`, { max: at(0.25) }],
      [`min_capacity=${at(0.3)}&max_capacity=${at(0.6)}`, { min: at(0.3), max: at(0.6) }],
      [`min_capacity=${at(0.4)}&max_capacity=${at(0.4)}`, { min: at(0.4), max: at(0.4) }],
      ['min_capacity=0&max_capacity=100000', { min: 0, max: 100000 }],
      [
        `technology=solar_pv,wind,hydro&tariff=${tariffs[0]}&risk_features[]=take_or_pay&min_capacity=5`,
        {
          technology: ['solar_pv', 'wind', 'hydro'],
          tariff: [tariffs[0] ?? ''],
          risk: ['take_or_pay'],
          min: 5,
        },
      ],
      [
        `developer=energ&year=${years[0]}&max_capacity=${at(0.9)}`,
        { developer: 'energ', year: years[0] as number, max: at(0.9) },
      ],
      [
        'technology=gas&developer=power&risk_features=government_guarantee',
        { technology: ['gas'], developer: 'power', risk: ['government_guarantee'] },
      ],
    ];

    for (const [query, filters] of cases) {
      it(`?${query || '(none)'}`, async () => {
        const expected = sorted(oracle(filters), 'name_asc');
        const slugs = await walk(`${query}${query ? '&' : ''}sort=name_asc&per_page=100`);
        expect(slugs).to.deep.equal(expected);
      });
    }

    it('the oracle cases are not trivial', () => {
      expect(oracle({ developer: 'LAKOWA' }).length).to.be.greaterThan(1);
      expect(oracle({ developer: 'AEROVIND' }).length).to.be.greaterThan(1);
      expect(oracle({ risk: ['take_or_pay', 'government_guarantee'] }).length).to.be.greaterThan(1);
    });
  });

  describe('orderings', () => {
    for (const sort of Object.keys(SORT_ORACLE)) {
      it(`sort=${sort} holds across every page (per_page=50), ending with slug ascending`, async () => {
        const slugs = await walk(`sort=${sort}&per_page=50`);
        expect(slugs).to.deep.equal(sorted(listed, sort));
      });
    }

    it('without q and sort: recent; with q: relevance', async () => {
      expect((await list('per_page=100')).data.map((d) => d.slug)).to.deep.equal(
        sorted(listed, 'recent').slice(0, 100),
      );
      expect((await list('q=solar')).meta.sort).to.equal('relevance');
      expect((await list('')).meta.sort).to.equal('recent');
    });

    it('relevance pages neither overlap nor skip', async () => {
      const all = await walk('q=solar&per_page=100');
      expect(all.length).to.be.greaterThan(100);
      expect(await walk('q=solar&per_page=7')).to.deep.equal(all);
    });

    it('a filtered sort holds too', async () => {
      const slugs = await walk('technology=solar_pv&sort=capacity_desc&per_page=20');
      expect(slugs).to.deep.equal(sorted(oracle({ technology: ['solar_pv'] }), 'capacity_desc'));
    });
  });

  describe('paging and links', () => {
    it('default page size is 25; meta is complete', async () => {
      const body = await list('');
      expect(body.data).to.have.length(25);
      const { changes_since: changesSince, ...meta } = body.meta as typeof body.meta & {
        changes_since: unknown;
      };
      expect(meta).to.deep.equal({
        total: listed.length,
        page: 1,
        per_page: 25,
        total_pages: Math.ceil(listed.length / 25),
        sort: 'recent',
      });
      // The sample index was built by a reindex, which starts its change log (empty: the first generation).
      expect(changesSince).to.match(/^[A-Za-z0-9]+\.0$/);
    });

    it('list items carry exactly the contract fields', async () => {
      const body = await list('per_page=100&sort=oldest');
      const first = listed.find((r) => r.slug === body.data[0]?.slug);
      expect(first).to.not.equal(undefined);
      expect(body.data[0]).to.deep.equal({
        slug: first?.slug,
        project_name: first?.project_name,
        developer: first?.developer,
        reference_code: first?.reference_code,
        location: first?.location,
        country_code: first?.country_code ?? null,
        technology: first?.technology,
        tariff: first?.tariff,
        capacity_mw: first?.capacity_mw,
        financial_close_year: first?.financial_close_year ?? null,
        risk_features: first?.risk_features ?? [],
        // The red flags raised (checked against an oracle in api-flags.test.ts).
        flags: body.data[0]?.flags,
        published_at: new Date(first?.published_at ?? 0).toISOString().replace('.000Z', 'Z'),
        updated_at: new Date(first?.updated_at ?? 0).toISOString().replace('.000Z', 'Z'),
        url: `${app().url}/api/v1/ppas/${first?.slug}`,
      });
      for (const item of body.data) {
        expect(item.published_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
        expect(item.flags).to.be.an('array');
      }
    });

    it('links keep every parameter, are null at the ends, and match the Link header', async () => {
      // Sent in any order: the links carry the parameters in name order (one answer for equivalent requests).
      const sent = 'technology=solar_pv,wind&risk_features[]=take_or_pay&sort=name_asc&per_page=10';
      const query = 'per_page=10&risk_features[]=take_or_pay&sort=name_asc&technology=solar_pv,wind';
      const total = oracle({ technology: ['solar_pv', 'wind'], risk: ['take_or_pay'] }).length;
      const pages = Math.ceil(total / 10);
      expect(pages).to.be.greaterThan(2);
      const url = (page: number) => `${app().url}/api/v1/ppas?${query}&page=${page}`;

      const first = await get(`/api/v1/ppas?${sent}`);
      const firstBody = first.body as ListBody;
      expect(firstBody.links).to.deep.equal({
        self: url(1),
        first: url(1),
        prev: null,
        next: url(2),
        last: url(pages),
      });
      expect(parseLinkHeader(first.headers.get('link'))).to.deep.equal(withoutNulls(firstBody.links));

      const middle = await get(`/api/v1/ppas?page=2&${query}`);
      const middleBody = middle.body as ListBody;
      const inPlace = (page: number) => `${app().url}/api/v1/ppas?page=${page}&${query}`;
      expect(middleBody.links).to.deep.equal({
        self: inPlace(2),
        first: inPlace(1),
        prev: inPlace(1),
        next: inPlace(3),
        last: inPlace(pages),
      });
      expect(parseLinkHeader(middle.headers.get('link'))).to.deep.equal(withoutNulls(middleBody.links));

      const lastBody = await list(`${query}&page=${pages}`);
      expect(lastBody.links.next).to.equal(null);
      expect(lastBody.links.prev).to.equal(inPlace(pages - 1)); // page sorts before per_page
    });

    it('a page past the last is 200 with no data; an empty result has total_pages 0 and last = page 1', async () => {
      const past = await list('per_page=100&page=99');
      expect(past.data).to.deep.equal([]);
      expect(past.meta.total).to.equal(listed.length);
      expect(past.links.next).to.equal(null);
      const empty = await list('technology=nuclear_fusion');
      expect(empty.data).to.deep.equal([]);
      expect(empty.meta).to.include({ total: 0, total_pages: 0 });
      expect(empty.links).to.include({
        prev: null,
        next: null,
        last: `${app().url}/api/v1/ppas?technology=nuclear_fusion&page=1`,
      });
    });

    it('absolute links use PUBLIC_BASE_URL when it is set', async () => {
      const other = await buildTestApp({
        alias,
        configOverrides: { publicBaseUrl: 'https://api.example.org/ppa', logLevel: 'warn' },
      });
      try {
        const response = await fetch(`${other.url}/api/v1/ppas?per_page=1&q=solar`);
        const body = (await response.json()) as ListBody;
        expect(body.links.next).to.equal('https://api.example.org/ppa/api/v1/ppas?per_page=1&q=solar&page=2');
        expect(body.data[0]?.url).to.equal(`https://api.example.org/ppa/api/v1/ppas/${body.data[0]?.slug}`);
        expect(response.headers.get('link')).to.contain(
          '<https://api.example.org/ppa/api/v1/ppas?per_page=1&q=solar&page=1>; rel="first"',
        );
      } finally {
        await other.close();
      }
    });
  });

  describe('full text (q)', () => {
    const slugsFor = async (q: string) =>
      (await list(`q=${encodeURIComponent(q)}&per_page=100`)).data.map((d) => d.slug);
    const named = (name: string) => listed.filter((r) => r.project_name === name).map((r) => r.slug);

    it('is insensitive to case and accents ("Sao Joao" finds "São João")', async () => {
      const expected = listed.filter((r) => foldText(r.project_name).includes('sao joao')).map((r) => r.slug);
      expect(expected.length).to.be.greaterThan(0);
      const found = await slugsFor('SAO JOAO');
      expect(found).to.include.members(expected);
      expect(await slugsFor('são joão')).to.deep.equal(found);
    });

    it('tolerates one typo in words of five letters or more, none under five', async () => {
      const target = listed.find((r) => r.project_name.startsWith('Peñablanca'));
      expect(target).to.not.equal(undefined);
      expect(await slugsFor('Penablanka')).to.include(target?.slug);
      // "Soma" (4 letters) with a typo ("Sona") must not reach Soma's records through fuzziness.
      const soma = listed.filter((r) =>
        /\bsoma\b/.test(foldText(`${r.project_name} ${r.location} ${r.developer}`)),
      );
      const sona = await slugsFor('Sxma');
      for (const record of soma) expect(sona).to.not.include(record.slug);
    });

    it('matches a prefix of the last word', async () => {
      const target = listed.find((r) => r.project_name.startsWith('Großbeeren'));
      expect(await slugsFor('grossbee')).to.include(target?.slug);
      expect(await slugsFor('Evora Nov')).to.include.members(
        listed.filter((r) => foldText(r.project_name).startsWith('evora nova')).map((r) => r.slug),
      );
    });

    it('an exact reference code ranks first, whatever its case', async () => {
      const target = listed[17];
      expect(target).to.not.equal(undefined);
      expect((await slugsFor(target?.reference_code ?? ''))[0]).to.equal(target?.slug);
      expect((await slugsFor((target?.reference_code ?? '').toLowerCase()))[0]).to.equal(target?.slug);
    });

    it("matches a reference code's words as typed or as the start of the last word, never through a typo (issue 47)", async () => {
      const target = listed.find((r) => /^[A-Z]{2}-[A-Z]{3}-\d{4}-\d{3}$/.test(r.reference_code));
      expect(target).to.not.equal(undefined);
      const [, kind, year] = (target?.reference_code ?? '').split('-') as [string, string, string];
      expect(await slugsFor(`${kind} ${year}`)).to.include(target?.slug);
      expect(await slugsFor(`${kind} ${year.slice(0, 3)}`)).to.include(target?.slug);
      // A digit added: one typo from the code's year (five typed letters allow one), found by no other field.
      expect(await slugsFor(`${kind} ${year}7`)).to.not.include(target?.slug);
    });

    it('an exact phrase ranks above partial matches', async () => {
      const found = await slugsFor('Evora Nova Solar');
      const exact = listed.filter((r) => foldText(r.project_name) === 'evora nova solar').map((r) => r.slug);
      expect(exact.length).to.be.greaterThan(0);
      expect(found.slice(0, exact.length)).to.have.members(exact);
    });

    it('words may match in different fields (name and developer)', async () => {
      const target = listed.find((r) => r.developer === 'Łąkowa Energia Sp. z o.o.');
      const firstWord = foldText(target?.project_name ?? '').split(' ')[0] ?? '';
      expect(await slugsFor(`${firstWord} lakowa`)).to.include(target?.slug);
    });

    it('filters combine with q, and statistics count what the list finds', async () => {
      const body = await list('q=solar&technology=solar_pv&per_page=100');
      for (const item of body.data) expect(item.technology).to.equal('solar_pv');
      const stats = await get('/api/v1/ppas/statistics?q=solar&technology=solar_pv');
      expect((stats.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(
        body.meta.total,
      );
    });

    describe('technology and country words, first-letter typos (issue 32)', () => {
      const hasWord = (text: string, word: string) =>
        foldText(text)
          .split(/[^a-z0-9]+/u)
          .includes(word);

      it('a word may match the technology by its synonyms ("Tuy Phong hydropower"); every word must still match', async () => {
        const tuyPhongHydro = listed
          .filter((r) => r.technology === 'hydro' && foldText(r.project_name).startsWith('tuy phong'))
          .map((r) => r.slug);
        expect(tuyPhongHydro).to.have.length.greaterThan(0);
        // No name in the sample says "hydropower": before issue 32 this found nothing.
        expect(listed.some((r) => hasWord(r.project_name, 'hydropower'))).to.equal(false);
        const found = await slugsFor('Tuy Phong hydropower');
        expect(found).to.include.members(tuyPhongHydro);
        for (const slug of found) expect(listed.find((r) => r.slug === slug)?.technology).to.equal('hydro');
        // "coal" matches no Tuy Phong record in any way: every word must match.
        expect(await slugsFor('Tuy Phong hydropower coal')).to.deep.equal([]);
      });

      it("a word may match the country's English name or another name of it, where the location does not say it", async () => {
        const vietnam = listed.filter((r) => foldText(r.project_name).startsWith('tuy phong'));
        expect(vietnam.every((r) => r.country_code === 'VN' && !hasWord(r.location, 'vietnam'))).to.equal(
          true,
        );
        expect(await slugsFor('Tuy Phong Vietnam')).to.have.members(vietnam.map((r) => r.slug));
        const boundiali = listed.filter((r) => foldText(r.project_name).startsWith('boundiali'));
        expect(await slugsFor('Boundiali Ivory Coast')).to.include.members(boundiali.map((r) => r.slug));
      });

      it('highlight=true: spans of the words q names, technology/country_code when they matched (issue 46)', async () => {
        type Item = { project_name: string; highlights?: Record<string, unknown> };
        const answer = async (query: string) => {
          const { status, body } = await get(`/api/v1/ppas?${query}`);
          expect(status, query).to.equal(200);
          return (body as { data: Item[] }).data;
        };
        const found = await answer('q=Tuy%20Phong%20hydropower%20Vietnam&highlight=true');
        expect(found.length).to.be.above(0);
        for (const item of found) {
          const spans = (item.highlights?.project_name ?? []) as [number, number][];
          expect(spans.map(([s, e]) => foldText(item.project_name.slice(s, e)))).to.include.members([
            'tuy',
            'phong',
          ]);
          expect(item.highlights).to.include({ technology: true });
          // "Vietnam" is the location's "Viet Nam" (a joined word) or, where the location does not say it, the country.
          expect(item.highlights?.country_code === true || item.highlights?.location !== undefined).to.equal(
            true,
          );
        }
        // Without highlight, or without q, no highlights; with fields, only the fields the item carries.
        expect((await answer('q=Tuy%20Phong'))[0]).to.not.have.property('highlights');
        expect((await answer('highlight=true&per_page=3'))[0]).to.not.have.property('highlights');
        const narrow = await answer('q=Tuy%20Phong%20Vietnam&highlight=true&fields=project_name');
        expect(Object.keys(narrow[0]?.highlights ?? {})).to.deep.equal(['project_name']);
        expect(paramNames(await problem('/api/v1/ppas?highlight=yes'))).to.deep.equal(['highlight']);
      });

      it('names that say the word rank above PPAs found by their technology', async () => {
        const found = await slugsFor('hydro Victoria');
        const saysHydro = found.map((slug) =>
          hasWord(listed.find((r) => r.slug === slug)?.project_name ?? '', 'hydro'),
        );
        expect(saysHydro).to.include(true);
        expect(saysHydro).to.include(false);
        expect(saysHydro.indexOf(false)).to.be.greaterThan(saysHydro.lastIndexOf(true));
      });

      it('a typo at the first letter of a word of five letters or more finds the name among the first three', async () => {
        const boundiali = listed.filter((r) => r.project_name === 'Boundiali Solar Park').map((r) => r.slug);
        expect(boundiali).to.have.length.greaterThan(0);
        for (const typo of ['Oundiali', 'Xoundiali', 'Obundiali', 'Bboundiali']) {
          const top = (await slugsFor(`${typo} Solar Park`)).slice(0, 3);
          expect(top, typo).to.include.members(boundiali.slice(0, 1));
        }
        // A five-letter word without its first letter has four, too few for fuzziness: "Olar" for "Solar".
        const olar = (await slugsFor('Boundiali Olar Park')).slice(0, 3);
        expect(olar).to.include.members(boundiali.slice(0, 1));
      });

      it('statistics, facets and the export see the same matches as the list', async () => {
        const q = encodeURIComponent('hydropower Vietnam');
        const body = await list(`q=${q}&per_page=100&facets=technology`);
        expect(body.meta.total).to.be.greaterThan(0);
        const stats = await get(`/api/v1/ppas/statistics?q=${q}`);
        expect((stats.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(
          body.meta.total,
        );
        expect(body.meta.facets?.technology).to.deep.equal([{ value: 'hydro', count: body.meta.total }]);
        const exported = await (await fetch(`${app().url}/api/v1/ppas/export?q=${q}&format=ndjson`)).text();
        const exportedSlugs = exported
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { slug: string }).slug);
        expect(exportedSlugs).to.have.members(body.data.map((item) => item.slug));
      });
    });

    it('never finds inactive records', async () => {
      const inactive = records.filter((r) => r.published && !r.active);
      for (const record of inactive.slice(0, 5)) {
        expect(await slugsFor(record.reference_code)).to.not.include(record.slug);
      }
    });

    it('punctuation-only or the longest q answers 200 (12 words, 200 characters); a 13th word is 400', async () => {
      expect((await list('q=--%20!!')).meta.total).to.equal(0);
      const long = Array.from({ length: 12 }, () => 'abcdefghijklmno').join(' ');
      expect(long.length).to.be.at.most(200);
      expect((await list(`q=${encodeURIComponent(long)}`)).meta.total).to.equal(0);
      const thirteen = Array.from({ length: 13 }, () => 'abcdefgh').join(' ');
      expect(paramNames(await problem(`/api/v1/ppas?q=${encodeURIComponent(thirteen)}`))).to.deep.equal([
        'q',
      ]);
      expect(named('Évora Nova Solar').length).to.be.greaterThan(0);
    });
  });

  describe('did you mean (issue 69)', () => {
    type Offer = { q: string; total: number; url: string };
    const answer = async (query: string) =>
      (await list(query)) as ListBody & { meta: { did_you_mean?: Offer } };
    const offered = async (text: string, extra = '') => {
      const body = await answer(`q=${encodeURIComponent(text)}${extra}`);
      expect(body.meta.total, text).to.equal(0);
      return body.meta.did_you_mean;
    };

    before(async () => {
      // The vocabulary is read in the background once the app runs: until then an empty answer offers nothing.
      await within(
        20_000,
        'the vocabulary read',
        async () => (await offered('Kafue Gorge banana')) !== undefined,
      );
    });

    it('offers the rewrite that finds something, past the forgiving tolerance; its url answers its total', async () => {
      const cases: [string, string][] = [
        ['Penbalnaxa Battery', 'Penablanca Battery'], // three edits in a long word
        ['Nocuva Geothermal', 'Mocuba Geothermal'], // a wrong first letter and a typo
        ['Mocuba Geothermal banana', 'Mocuba Geothermal'], // a word the data does not hold
        ['KafueGorgeSouth Wind', 'Kafue Gorge South Wind'], // three words joined
      ];
      for (const [typed, meant] of cases) {
        const offer = await offered(typed);
        expect(offer?.q, typed).to.equal(meant);
        const followed = await answer(new URL(offer!.url).search.slice(1));
        expect(followed.meta.total, typed).to.equal(offer!.total).and.above(0);
        expect(followed.meta, typed).to.not.have.property('did_you_mean');
      }
    });

    it('keeps operators, qualifiers and the other parameters as written; counts under the same filters', async () => {
      const offer = await offered('Kafue "gorge south" zorblat -solar', '&technology=wind&per_page=5&page=2');
      expect(offer?.q).to.equal('Kafue "gorge south" -solar');
      const expected = listed.filter(
        (r) => foldText(r.project_name).startsWith('kafue gorge south') && r.technology === 'wind',
      );
      expect(offer?.total).to.equal(expected.length);
      const url = new URL(offer!.url);
      expect(url.searchParams.get('technology')).to.equal('wind');
      expect(url.searchParams.get('per_page')).to.equal('5');
      expect(url.searchParams.has('page'), 'back to the first page').to.equal(false);
      // A cursor walk starts again.
      const walked = await offered('Mocuba Geothermal banana', '&cursor=*');
      expect(new URL(walked!.url).searchParams.get('cursor')).to.equal('*');
    });

    it('none when there are results, and none that finds nothing (gibberish)', async () => {
      expect((await answer('q=Mocuba%20Geothermal')).meta).to.not.have.property('did_you_mean');
      expect((await answer('q=Mocuba')).meta).to.not.have.property('did_you_mean');
      expect(await offered('qzxvbn bcdfgh')).to.equal(undefined);
      expect(await offered('qzxvbn')).to.equal(undefined);
      // Without q nothing is rewritten, whatever the filters leave.
      expect((await answer('technology=nuclear_fusion')).meta).to.not.have.property('did_you_mean');
    });
  });

  describe('bad input answers 400 naming every problem', () => {
    const rows: [string, string[]][] = [
      [`q=${'a'.repeat(201)}`, ['q']],
      [`q=${'%EF%B7%BA'.repeat(12)}`, ['q']], // U+FDFA folds to 18 characters: 216 in all
      [`developer=${'%EF%AC%83'.repeat(40)}`, ['developer']], // "ﬃ" folds to "ffi"
      ['country=sen', ['country']],
      [`technology=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, ['technology']],
      ['facets=developer', ['facets']],
      ['fields=offtaker', ['fields']],
      ['slug=Not_A_Slug', ['slug']],
      ['technology=solar-pv', ['technology']],
      ['technology=solar_pv,,wind', ['technology']],
      ['tariff=energy_only,', ['tariff']],
      [`developer=${'d'.repeat(101)}`, ['developer']],
      ['year=1899', ['year']],
      ['year=2101', ['year']],
      ['year=20x0', ['year']],
      ['year=2000.5', ['year']],
      [Array.from({ length: 21 }, (_, i) => `risk_features[]=f${i}`).join('&'), ['risk_features[]']],
      [
        [
          ...Array.from({ length: 11 }, (_, i) => `risk_features[]=f${i}`),
          ...Array.from({ length: 10 }, (_, i) => `risk_features=g${i}`),
        ].join('&'),
        ['risk_features[]'],
      ],
      ['risk_features[]=Bad%20Token', ['risk_features[]']],
      ['min_capacity=-1', ['min_capacity']],
      ['max_capacity=100001', ['max_capacity']],
      ['min_capacity=abc', ['min_capacity']],
      ['min_capacity=10&max_capacity=5', ['min_capacity']],
      ['sort=newest', ['sort']],
      ['sort=relevance', ['sort']],
      ['sort=relevance&q=%20%20', ['sort']],
      ['page=0', ['page']],
      ['page=1.5', ['page']],
      ['per_page=0', ['per_page']],
      ['per_page=101', ['per_page']],
      ['page=101&per_page=100', ['page']],
      ['page=10001', ['page']],
      ['limit=10', ['limit']],
      ['q=a&q=b', ['q']],
      ['year=2000&year=2001', ['year']],
      ['technology=wind&technology=hydro', ['technology']],
      [
        'foo=1&technology=a,,b&year=x&per_page=0&sort=relevance&min_capacity=9&max_capacity=1&q=a&q=b',
        ['foo', 'min_capacity', 'per_page', 'q', 'technology', 'year'],
      ],
    ];
    for (const [query, names] of rows) {
      it(`/ppas?${query.length > 60 ? `${query.slice(0, 60)}…` : query} → ${names.join(', ')}`, async () => {
        const body = await problem(`/api/v1/ppas?${query}`);
        expect(body.status).to.equal(400);
        expect(paramNames(body)).to.deep.equal(names);
        for (const param of body.invalid_params ?? [])
          expect(param.reason).to.be.a('string').and.not.equal('');
      });
    }
  });
});
