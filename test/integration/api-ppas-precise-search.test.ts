// Precise search (issue 59) over the real app, a real Elasticsearch and the shipped sample: phrases, words left
// out, alternatives and qualifiers select what the contract says, checked against the sample itself; a q that
// only leaves out orders as without q; and the same q selects the same PPAs in the list, statistics and export.
import { expect } from 'chai';
import type { PpaRecord } from '../../indexContract/record.js';
import { technologyWords } from '../../indexContract/text/canonical.js';
import { countryNameWords } from '../../indexContract/text/countryNames.js';
import { foldText } from '../../indexContract/text/fold.js';
import { standardTokens } from '../../indexContract/text/tokenizer.js';
import { editDistance } from '../../src/matching/editDistance.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { listed, records, sorted } from '../support/sampleOracle.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEXT_FIELDS = ['project_name', 'developer', 'location', 'reference_code'] as const;
const tokens = (text: string | null | undefined) => standardTokens(foldText(text ?? ''));

/** Whether a field of the record holds these words next to each other, in this order. */
function holdsPhrase(record: PpaRecord, words: readonly string[], fields = TEXT_FIELDS): boolean {
  return fields.some((field) => {
    const held = tokens(record[field]);
    return held.some((_, start) => words.every((word, i) => held[start + i] === word));
  });
}

/** Whether the record holds the word anywhere q looks, as a whole word: the four fields, technology, country. */
function holdsWord(record: PpaRecord, word: string): boolean {
  return (
    holdsPhrase(record, [word]) ||
    technologyWords(record.technology).includes(word) ||
    countryNameWords(record.country_code ?? null).some((name) => name.split(' ').includes(word))
  );
}

describe('precise search on the sample index (issue 59)', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-precise');
  const { get, problem } = ppasApi(() => app().url);

  /** Every slug a list query selects (cursor walk, 100 a page). */
  async function slugs(query: string): Promise<string[]> {
    const all: string[] = [];
    let path: string | null = `/api/v1/ppas?per_page=100&cursor=*&fields=slug&${query}`;
    while (path) {
      const response = await get(path);
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).to.equal(200);
      const body = response.body as { data: { slug: string }[]; links: { next: string | null } };
      all.push(...body.data.map((item) => item.slug));
      const next = body.links.next === null ? null : new URL(body.links.next, app().url);
      path = next === null ? null : `${next.pathname}${next.search}`;
    }
    return all;
  }
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  // A name of three words or more whose first two words stand together in few names: the phrase's case.
  const named = listed.find((record) => {
    const words = tokens(record.project_name);
    return words.length >= 3 && /^\p{L}{4,}$/u.test(words[0]!) && /^\p{L}{4,}$/u.test(words[1]!);
  })!;
  const [first, second] = tokens(named.project_name);

  it('a phrase selects the PPAs holding its words next to each other, in order, in one of the four fields', async () => {
    const expected = listed.filter((record) => holdsPhrase(record, [first!, second!])).map((r) => r.slug);
    expect(expected).to.include(named.slug);
    expect((await slugs(q(`"${first} ${second}"`))).sort()).to.deep.equal(expected.sort());
    // The other order is another phrase.
    const reversed = listed.filter((record) => holdsPhrase(record, [second!, first!])).map((r) => r.slug);
    expect((await slugs(q(`"${second} ${first}"`))).sort()).to.deep.equal(reversed.sort());
  });

  it('-word is q less the PPAs holding the word anywhere q looks; a q that only leaves out orders as without q', async () => {
    const solar = await slugs(q('solar'));
    // A word many solar PPAs hold somewhere: their country's name, a place, a developer's word.
    const counts = new Map<string, number>();
    for (const record of listed.filter((r) => solar.includes(r.slug))) {
      for (const word of new Set(TEXT_FIELDS.flatMap((field) => tokens(record[field])))) {
        if (/^\p{L}{4,}$/u.test(word) && word !== 'solar') counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
    const [left] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
    const bySlug = new Map(listed.map((record) => [record.slug, record]));
    const expected = solar.filter((slug) => !holdsWord(bySlug.get(slug)!, left));
    expect(expected.length).to.be.within(1, solar.length - 1);
    expect((await slugs(q(`solar -${left}`))).sort()).to.deep.equal([...expected].sort());

    // Only left out: every other PPA, newest first, as without q.
    const coalFree = listed.filter((record) => !holdsWord(record, 'coal'));
    expect(coalFree.length).to.be.below(listed.length);
    expect(await slugs(q('-coal'))).to.deep.equal(sorted(coalFree, 'recent'));
  });

  it('a OR b is the union of a and b, each as forgiving as alone', async () => {
    const [wind, hydro, either] = await Promise.all([
      slugs(q('wind')),
      slugs(q('hydro')),
      slugs(q('wind OR hydro')),
    ]);
    expect(wind.length).to.be.above(0);
    expect(hydro.length).to.be.above(0);
    expect([...either].sort()).to.deep.equal([...new Set([...wind, ...hydro])].sort());
  });

  it('developer: looks in the developer alone, as forgiving as everywhere', async () => {
    // A developer's word that other PPAs hold only in their name or place.
    const bySlug = new Map(listed.map((r) => [r.slug, r]));
    const candidates = listed.flatMap((r) => tokens(r.developer).filter((w) => /^\p{L}{5,}$/u.test(w)));
    const word = candidates.find((w) =>
      listed.some((r) => holdsWord(r, w) && !tokens(r.developer).includes(w)),
    )!;
    expect(word, 'a developer word also held elsewhere').to.be.a('string');
    // Forgiving in the developer: the word as typed, as a start (it is the last word), or a typo or two away.
    const typos = word.length >= 8 ? 2 : 1;
    const names = (r: PpaRecord) =>
      tokens(r.developer).some((w) => w.startsWith(word) || editDistance(word, w, typos) <= typos);
    const found = await slugs(q(`developer:${word}`));
    expect([...found].sort()).to.deep.equal(
      listed
        .filter(names)
        .map((r) => r.slug)
        .sort(),
    );
    const elsewhere = listed.filter((r) => holdsWord(r, word) && !names(r));
    expect(elsewhere.length, 'PPAs holding the word outside the developer').to.be.above(0);
    for (const r of elsewhere) expect(found).to.not.include(r.slug);
    expect(bySlug.size).to.equal(listed.length);
  });

  it('the same q selects the same PPAs in the list, the statistics and the export', async () => {
    const text = `"${first} ${second}" OR solar -coal`;
    const list = await slugs(q(text));
    const statistics = await get(`/api/v1/ppas/statistics?${q(text)}`);
    expect(statistics.status).to.equal(200);
    expect((statistics.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(
      list.length,
    );
    const exported = await fetch(`${app().url}/api/v1/ppas/export?format=ndjson&fields=slug&${q(text)}`);
    expect(exported.status).to.equal(200);
    const lines = (await exported.text()).split('\n').filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { slug: string }).slug).sort()).to.deep.equal(
      [...list].sort(),
    );
  });

  it('highlights: a phrase is one span, what is left out is never marked', async () => {
    const response = await get(
      `/api/v1/ppas?highlight=true&fields=slug,project_name&${q(`"${first} ${second}" -zzzz`)}`,
    );
    const body = response.body as {
      data: { slug: string; project_name: string; highlights: { project_name?: [number, number][] } }[];
    };
    const item = body.data.find((entry) => entry.slug === named.slug)!;
    const spans = item.highlights.project_name ?? [];
    expect(spans.map(([start, end]) => foldText(item.project_name.slice(start, end)))).to.include(
      `${first} ${second}`,
    );
  });

  describe('filters: !values and year ranges', () => {
    const total = async (query: string) =>
      ((await get(`/api/v1/ppas?per_page=1&${query}`)).body as { meta: { total: number } }).meta.total;
    const count = (keep: (record: PpaRecord) => boolean) => listed.filter(keep).length;
    const country = listed.find((r) => r.country_code)!.country_code!;

    it('!value leaves that value out, a PPA without a value included; ranges of years leave out PPAs without a year', async () => {
      const cases: [string, (record: PpaRecord) => boolean][] = [
        ['technology=!solar_pv', (r) => r.technology !== 'solar_pv'],
        // A value both chosen and left out is taken out of the selection (the contract, "Precise search").
        ['technology=solar_pv,wind,!wind', (r) => r.technology === 'solar_pv'],
        ['tariff=!energy_only,!take_or_pay', (r) => r.tariff !== 'energy_only' && r.tariff !== 'take_or_pay'],
        [`country=!${country.toLowerCase()}`, (r) => r.country_code !== country],
        [
          'risk_features[]=!government_guarantee',
          (r) => !(r.risk_features ?? []).includes('government_guarantee'),
        ],
        [
          'risk_features[]=take_or_pay&risk_features[]=!government_guarantee',
          (r) =>
            (r.risk_features ?? []).includes('take_or_pay') &&
            !(r.risk_features ?? []).includes('government_guarantee'),
        ],
        [
          'year=2010..2015',
          (r) =>
            r.financial_close_year != null &&
            r.financial_close_year >= 2010 &&
            r.financial_close_year <= 2015,
        ],
        ['year=2015..', (r) => r.financial_close_year != null && r.financial_close_year >= 2015],
        ['year=..2005', (r) => r.financial_close_year != null && r.financial_close_year <= 2005],
      ];
      for (const [query, keep] of cases) {
        const expected = count(keep);
        expect(expected, query).to.be.within(1, listed.length - 1);
        expect(await total(query), query).to.equal(expected);
      }
      // A country left out keeps the PPAs whose country is unknown.
      const unknown = count((r) => !r.country_code);
      if (unknown > 0) expect(await total(`country=!${country.toLowerCase()}`)).to.be.above(unknown);
    });

    it('facets stay disjunctive: a filter’s own facet counts ignore it, its !values included', async () => {
      type Facets = { meta: { facets: Record<string, { value: unknown; count: number }[]> } };
      const facetsOf = async (query: string) =>
        ((await get(`/api/v1/ppas?per_page=1&facets=technology,year&${query}`)).body as Facets).meta.facets;
      const without = await facetsOf('tariff=energy_only');
      const left = await facetsOf('tariff=energy_only&technology=!solar_pv&year=2010..2015');
      expect(left.technology).to.deep.equal(
        (await facetsOf('tariff=energy_only&year=2010..2015')).technology,
      );
      expect(left.year).to.deep.equal((await facetsOf('tariff=energy_only&technology=!solar_pv')).year);
      expect(left.technology).to.not.deep.equal(without.technology);
    });

    it('statistics and export take the same filters as the list', async () => {
      const query = 'technology=!solar_pv&year=2005..&risk_features[]=!take_or_pay';
      const listTotal = await total(query);
      expect(listTotal).to.be.above(0);
      const statistics = await get(`/api/v1/ppas/statistics?${query}`);
      expect((statistics.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(
        listTotal,
      );
      const exported = await fetch(`${app().url}/api/v1/ppas/export?format=ndjson&fields=slug&${query}`);
      expect((await exported.text()).split('\n').filter(Boolean)).to.have.length(listTotal);
    });
  });

  describe('the rules under the syntax table', () => {
    it('a hyphen inside a word, lower-case or and abc:def are text: the same PPAs as the plain words', async () => {
      const runOfRiver = listed.find((r) => /\w-\w/u.test(r.project_name)) ?? listed[0]!;
      const hyphenated = runOfRiver.project_name.split(/\s+/u).find((w) => /\w-\w/u.test(w));
      if (hyphenated) expect(await slugs(q(hyphenated))).to.include(runOfRiver.slug);
      // "or" in lower case must match like any word: fewer PPAs than either word alone.
      const [solarOrWind, solarOR] = await Promise.all([
        slugs(q('solar or wind')),
        slugs(q('solar OR wind')),
      ]);
      expect(solarOrWind.length).to.be.below(solarOR.length);
      // abc:def is one word of text (its tokens), never a qualifier.
      expect(await slugs(q(`solar:${first}`))).to.deep.equal(
        await slugs(q(`solar:${first}`.replace(':', ': ').replace(': ', ':'))),
      );
      const asText = await get(`/api/v1/ppas?per_page=1&${q(`abc:${first}`)}`);
      expect(asText.status).to.equal(200);
    });

    it('an unclosed quote closes at the end of q', async () => {
      expect(await slugs(q(`"${first} ${second}`))).to.deep.equal(await slugs(q(`"${first} ${second}"`)));
    });

    it('a q that only leaves out with sort=relevance is 400 naming sort', async () => {
      const body = await problem(`/api/v1/ppas?sort=relevance&${q('-coal -gas')}`);
      expect(paramNames(body)).to.deep.equal(['sort']);
    });

    it('the 12-word bound counts the words of phrases, alternatives and exclusions', async () => {
      const twelve = '"a b c" d OR e -f -"g h" i j k l';
      expect((await get(`/api/v1/ppas?per_page=1&${q(twelve)}`)).status).to.equal(200);
      const body = await problem(`/api/v1/ppas?${q(`${twelve} m`)}`);
      expect(paramNames(body)).to.deep.equal(['q']);
    });

    it('a few hundred random strings of quotes, dashes, OR, colons, parentheses and astral letters: 200 or 400 naming q, never 5xx', async () => {
      let seed = 59;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pieces = [
        '"',
        '-',
        'OR',
        'or',
        ':',
        'name:',
        'developer:',
        'location:',
        'code:',
        '(',
        ')',
        ' ',
        '  ',
        '😀',
        '𝟏',
        '\u0301',
        'x',
        first!,
        second!,
        'solar',
        'ZM-HYD',
        "d'ivoire",
        '!',
        '..',
        'abc:',
      ];
      const failures: string[] = [];
      const queries = Array.from({ length: 300 }, () => {
        let text = '';
        const length = 1 + Math.floor(next() * 12);
        for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
        return text;
      });
      for (let at = 0; at < queries.length; at += 6) {
        await Promise.all(
          queries.slice(at, at + 6).map(async (text) => {
            const response = await get(`/api/v1/ppas?per_page=5&highlight=true&facets=technology&${q(text)}`);
            if (response.status === 200) return;
            const names =
              response.status === 400 ? paramNames(response.body as Parameters<typeof paramNames>[0]) : [];
            if (response.status !== 400 || names.join() !== 'q')
              failures.push(`${JSON.stringify(text)}: ${response.status} ${names}`);
          }),
        );
      }
      expect(failures).to.deep.equal([]);
    });
  });
});

describe('a pasted name on an index whose names hold operator characters (issue 69)', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-pasted');
  const source = join(tmpdir(), `${alias}.ndjson`);
  let app: TestApp | undefined;
  const { get } = ppasApi(() => app!.url);

  // Sample records renamed as registries name some: a "-" before a word, quotes, and one the operators would find.
  const renamed = new Map([
    [listed[0]!.slug, 'PLTU -Jeneponto I & II'],
    [listed[1]!.slug, '"Blue Lake" GES'],
    [listed[2]!.slug, 'Blue Lake GES Extension'],
    [listed[3]!.slug, 'Jeneponto Wind Farm'],
  ]);
  const [jeneponto, blueLake, extension] = [...renamed.keys()];

  before(async () => {
    const lines = records.map((record) =>
      JSON.stringify({ ...record, project_name: renamed.get(record.slug) ?? record.project_name }),
    );
    await writeFile(source, `${lines.join('\n')}\n`);
    await indexSample(client, alias, source);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await rm(source, { force: true });
    await client.close();
  });

  const listOf = async (text: string, extra = '') => {
    const response = await get(
      `/api/v1/ppas?per_page=100&highlight=true&q=${encodeURIComponent(text)}${extra}`,
    );
    expect(response.status, text).to.equal(200);
    return response.body as {
      data: { slug: string; project_name: string; highlights: { project_name?: [number, number][] } }[];
      meta: { total: number; sort: string };
    };
  };

  it('finds the PPA whose whole name q is first, as written, in capitals and padded; marked as one span', async () => {
    for (const [slug, name] of [
      [jeneponto!, 'PLTU -Jeneponto I & II'],
      [blueLake!, '"Blue Lake" GES'],
    ] as const) {
      for (const text of [name, name.toUpperCase(), `  ${name.split(' ').join('   ')} `]) {
        const body = await listOf(text);
        expect(body.data[0]?.slug, text).to.equal(slug);
        expect(body.data[0]?.highlights.project_name, text).to.deep.equal([[0, name.length]]);
      }
    }
  });

  it("the operator reading's matches follow it; the same q selects the same PPAs in the statistics", async () => {
    const body = await listOf('"Blue Lake" GES');
    expect(body.data.map((item) => item.slug)).to.deep.equal([blueLake, extension]);
    expect(body.meta.sort).to.equal('relevance');
    // The word left out still leaves out every other PPA holding it.
    const pasted = await listOf('PLTU -Jeneponto I & II');
    expect(pasted.data.map((item) => item.slug))
      .to.include(jeneponto)
      .and.not.include(listed[3]!.slug);
    const statistics = await get(`/api/v1/ppas/statistics?q=${encodeURIComponent('"Blue Lake" GES')}`);
    expect((statistics.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(2);
  });
});
