// GET /api/v1/ppas/suggest over the real app and Elasticsearch on the shipped sample.
import { expect } from 'chai';
import { foldText } from '../../indexContract/text/fold.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { listed, records } from '../support/sampleOracle.js';
import { within } from '../support/within.js';

interface Suggestions {
  data: {
    slug: string;
    project_name: string;
    technology: string;
    country_code: string | null;
    url: string;
    highlights?: { project_name?: [number, number][] };
  }[];
}

describe('GET /api/v1/ppas/suggest on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-suggest');
  const { get, problem } = ppasApi(() => app().url);

  const suggest = async (q: string, extra = ''): Promise<Suggestions> => {
    const { status, body } = await get(`/api/v1/ppas/suggest?q=${encodeURIComponent(q)}${extra}`);
    expect(status, q).to.equal(200);
    return body as Suggestions;
  };

  it('suggests names that start with what was typed, the whole name first, with the item shape', async () => {
    const record = listed.find((r) => r.project_name.split(' ').length >= 3) ?? listed[0];
    const name = record?.project_name ?? '';
    const body = await suggest(name);
    expect(body.data[0]).to.deep.equal({
      slug: record?.slug,
      project_name: name,
      technology: record?.technology,
      country_code: record?.country_code ?? null,
      url: `${app().url}/api/v1/ppas/${record?.slug}`,
    });
    const typed = name.slice(0, name.indexOf(' ') + 4);
    const started = await suggest(typed);
    expect(started.data.map((item) => item.slug)).to.include(record?.slug);
    for (const item of started.data.slice(0, 3)) {
      expect(foldText(item.project_name).split(' ')[0], typed).to.equal(foldText(typed).split(' ')[0]);
    }
  });

  it('ignores accents and case, and tolerates one typo from five letters', async () => {
    const accented = listed.find((r) => foldText(r.project_name) !== r.project_name.toLowerCase());
    expect(accented, 'a sample name with accents').to.not.equal(undefined);
    const plain = foldText(accented?.project_name ?? '').toUpperCase();
    expect((await suggest(plain)).data[0]?.slug).to.equal(accented?.slug);
    // One typo (two letters swapped) in the first word of six letters or more of a sample name.
    const typed = listed.find((r) => r.project_name.split(' ').some((w) => /^\p{L}{6,}$/u.test(foldText(w))));
    const word = typed?.project_name.split(' ').find((w) => /^\p{L}{6,}$/u.test(foldText(w))) ?? '';
    expect(word).to.not.equal('');
    const letters = [...foldText(word)];
    const typo = [letters[0], letters[2], letters[1], ...letters.slice(3)].join('');
    const body = await suggest((typed?.project_name ?? '').replace(word, typo));
    expect(body.data.map((item) => item.slug)).to.include(typed?.slug);
  });

  it('shares the canonical forms of q: "… PV" suggests "… Photovoltaic …", "… II" suggests "… 2"', async () => {
    const photovoltaic = listed.find((r) => / Photovoltaic /u.test(r.project_name));
    expect(photovoltaic, 'a sample name with Photovoltaic').to.not.equal(undefined);
    const name = photovoltaic?.project_name ?? '';
    const typed = `${name.slice(0, name.indexOf(' Photovoltaic '))} PV`;
    const body = await suggest(typed, '&limit=20');
    expect(
      body.data.map((item) => item.slug),
      typed,
    ).to.include(photovoltaic?.slug);
    for (const item of body.data) expect(item.project_name, typed).to.match(/Photovoltaic|\bPV\b/iu);
    const roman = listed.find((r) => / II$/u.test(r.project_name));
    expect(roman, 'a sample name ending in II').to.not.equal(undefined);
    const digits = (roman?.project_name ?? '').replace(/ II$/u, ' 2');
    expect(
      (await suggest(digits)).data.map((item) => item.slug),
      digits,
    ).to.include(roman?.slug);
  });

  it('highlight=true marks the words of each name that what was typed names (issue 46)', async () => {
    const record = listed.find((r) => r.project_name.split(' ').length >= 2) ?? listed[0];
    const [first = '', second = ''] = record!.project_name.split(' ');
    const typed = `${first} ${second.slice(0, 3)}`;
    const plain = await suggest(typed);
    expect(plain.data[0]).to.not.have.property('highlights');
    const { data } = await suggest(typed, '&highlight=true');
    expect(data.length).to.be.above(0);
    for (const item of data) {
      const spans = item.highlights?.project_name ?? [];
      expect(spans.length, item.project_name).to.be.above(0);
      for (const [start, end] of spans) expect(end).to.be.within(start + 1, item.project_name.length);
    }
    const exact = data.find((item) => item.project_name === record!.project_name);
    const marked = (exact?.highlights?.project_name ?? []).map(([s, e]) => record!.project_name.slice(s, e));
    expect(marked.slice(0, 2)).to.deep.equal([first, second]);
    expect((await suggest(typed, '&highlight=false')).data[0]).to.not.have.property('highlights');
  });

  it('suggests only published and active PPAs; limit bounds how many', async () => {
    const inactive = records.find((r) => r.published && !r.active);
    const unpublished = records.find((r) => !r.published);
    for (const hidden of [inactive, unpublished]) {
      const body = await suggest(hidden?.project_name ?? '', '&limit=20');
      expect(body.data.map((item) => item.slug)).to.not.include(hidden?.slug);
    }
    expect((await suggest('s', '&limit=3')).data).to.have.length(3);
    expect((await suggest('s')).data).to.have.length(10);
    expect((await suggest('zqxjkv')).data).to.deep.equal([]);
    expect((await suggest('...')).data).to.deep.equal([]);
  });

  it('offers did_you_mean when nothing is suggested, and only then (issue 69)', async () => {
    type Offered = Suggestions & { did_you_mean?: { q: string; total: number; url: string } };
    // The vocabulary is read in the background once the app runs.
    await within(20_000, 'the vocabulary read', async () => {
      return ((await suggest('Mocuba Geothermal banana')) as Offered).did_you_mean !== undefined;
    });
    const empty = (await suggest('Penbalnaxa Bat', '&limit=5')) as Offered;
    expect(empty.data).to.deep.equal([]);
    expect(empty.did_you_mean?.q).to.equal('Penablanca Bat');
    const url = new URL(empty.did_you_mean!.url);
    expect(url.pathname).to.equal('/api/v1/ppas/suggest');
    expect(url.searchParams.get('limit')).to.equal('5');
    const followed = (await suggest(url.searchParams.get('q')!, '&limit=5')) as Offered;
    expect(followed.data.map((item) => item.project_name)).to.include('Peñablanca Battery Storage Project');
    expect(followed).to.not.have.property('did_you_mean');
    expect(await suggest('zqxjkv')).to.not.have.property('did_you_mean');
  });

  it('refuses a missing or too long q, a bad limit and unknown parameters, naming each', async () => {
    expect(paramNames(await problem('/api/v1/ppas/suggest'))).to.deep.equal(['q']);
    expect(paramNames(await problem('/api/v1/ppas/suggest?q=%20%20'))).to.deep.equal(['q']);
    expect(paramNames(await problem(`/api/v1/ppas/suggest?q=${'a'.repeat(101)}`))).to.deep.equal(['q']);
    expect(paramNames(await problem('/api/v1/ppas/suggest?q=sol&limit=21&page=2'))).to.deep.equal([
      'limit',
      'page',
    ]);
  });
});
