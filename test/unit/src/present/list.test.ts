import { expect } from 'chai';
import { BASE, listSource } from '../../../support/sources.js';
import type { estypes } from '@elastic/elasticsearch';
import { parseListQuery } from '../../../../src/params/list.js';
import { highlighterFor, linkHeader, pageUrl, presentList } from '../../../../src/present/list.js';
import type { ListSource } from '../../../../indexContract/sourceFields.js';
import type { ListResult } from '../../../../src/queries/listPlan.js';

function result(total: number, sources: ListSource[]): ListResult {
  const response: estypes.SearchResponse<ListSource> = {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: {
      total: { value: total, relation: 'eq' },
      hits: sources.map((s) => ({ _index: 'i', _id: s.slug, _source: s })),
    },
  };
  return { response };
}

describe('api present: list, meta and links', () => {
  const request = (querystring: string, base = BASE) => ({
    query: parseListQuery(querystring),
    querystring,
    base,
    highlight: undefined,
  });

  it('meta and links in the middle of the results', () => {
    const { body, linkHeader: header } = presentList(
      result(137, [listSource]),
      request('technology=solar_pv&page=2&q=x'),
    );
    expect(body.meta).to.deep.equal({
      total: 137,
      page: 2,
      per_page: 25,
      total_pages: 6,
      sort: 'relevance',
      changes_since: null,
    });
    expect(body.links).to.deep.equal({
      self: `${BASE}/api/v1/ppas?technology=solar_pv&page=2&q=x`,
      first: `${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x`,
      prev: `${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x`,
      next: `${BASE}/api/v1/ppas?technology=solar_pv&page=3&q=x`,
      last: `${BASE}/api/v1/ppas?technology=solar_pv&page=6&q=x`,
    });
    expect(header).to.equal(
      [
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=2&q=x>; rel="self"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x>; rel="first"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x>; rel="prev"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=3&q=x>; rel="next"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=6&q=x>; rel="last"`,
      ].join(', '),
    );
  });

  it('next is null at the edge of the 10,000-result paging window, so following next never meets a 400', () => {
    const edge = presentList(result(50_000, []), request('per_page=100&page=100')).body;
    expect(edge.meta.total_pages).to.equal(500);
    expect(edge.links.next).to.equal(null);
    expect(edge.links.last).to.equal(`${BASE}/api/v1/ppas?per_page=100&page=500`);
    const before = presentList(result(50_000, []), request('per_page=100&page=99')).body;
    expect(before.links.next).to.equal(`${BASE}/api/v1/ppas?per_page=100&page=100`);
  });

  it('prev and next are null at the ends; empty results have total_pages 0 and last = page 1', () => {
    const first = presentList(result(30, []), request('per_page=10')).body;
    expect(first.links.prev).to.equal(null);
    expect(first.links.next).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=2`);
    expect(first.links.last).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=3`);
    const last = presentList(result(30, []), request('per_page=10&page=3')).body;
    expect(last.links.next).to.equal(null);
    const empty = presentList(result(0, []), request('technology=none')).body;
    expect(empty).to.deep.include({
      data: [],
      meta: { total: 0, page: 1, per_page: 25, total_pages: 0, sort: 'recent', changes_since: null },
    });
    expect(empty.links).to.deep.include({
      prev: null,
      next: null,
      last: `${BASE}/api/v1/ppas?technology=none&page=1`,
    });
    const past = presentList(result(30, []), request('per_page=10&page=9')).body;
    expect(past.links.next).to.equal(null);
    expect(past.links.prev).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=8`);
  });

  it('did_you_mean: the rewrite, its total, the same request with it from the first page (issue 69)', () => {
    const offer = { ...result(0, []), didYouMean: { q: 'Kafue "gorge"', total: 7 } };
    const { body } = presentList(
      offer,
      request('technology=wind&q=Kafeu%20%22gorge%22%20zz&page=2&per_page=5'),
    );
    expect(body.meta.did_you_mean).to.deep.equal({
      q: 'Kafue "gorge"',
      total: 7,
      url: `${BASE}/api/v1/ppas?technology=wind&q=Kafue%20%22gorge%22&per_page=5`,
    });
    const walk = presentList(offer, request('q=zz&cursor=*')).body.meta.did_you_mean;
    expect(walk?.url).to.equal(`${BASE}/api/v1/ppas?q=Kafue%20%22gorge%22&cursor=*`);
    // Absent when nothing is offered: the body it always was.
    expect(presentList(result(0, []), request('q=zz')).body.meta).to.not.have.property('did_you_mean');
  });

  it('links keep every other parameter exactly as sent', () => {
    const querystring =
      'q=S%C3%A3o+Jo%C3%A3o&risk_features[]=a&risk_features%5B%5D=b&page=&x=%7E&sort=name_asc';
    expect(pageUrl(request(querystring.replace('&x=%7E', '')), 4)).to.equal(
      `${BASE}/api/v1/ppas?q=S%C3%A3o+Jo%C3%A3o&risk_features[]=a&risk_features%5B%5D=b&page=4&sort=name_asc`,
    );
    // Characters a URL may not carry raw are encoded; an empty page counts as absent and is replaced.
    const raw = {
      query: parseListQuery(''),
      querystring: 'developer=a b<>"\u00e9&&page=',
      base: `${BASE}/`,
      highlight: undefined,
    };
    expect(pageUrl(raw, 2)).to.equal(`${BASE}/api/v1/ppas?developer=a%20b%3C%3E%22%E9&page=2`);
    expect(linkHeader({ self: 's', first: 'f', prev: null, next: null, last: 'l' })).to.equal(
      '<s>; rel="self", <f>; rel="first", <l>; rel="last"',
    );
  });
});

describe('api present: the Link header stays small', () => {
  it('is left out past 6 KB, while the body keeps every link', () => {
    const querystring = `q=${'%E5%8C%97'.repeat(200)}`; // 1,800 bytes of percent-encoded text
    const { body, linkHeader: header } = presentList(result(100, []), {
      query: parseListQuery(`${querystring}&page=2`),
      querystring: `${querystring}&page=2`,
      base: BASE,
      highlight: undefined,
    });
    expect(header).to.equal(undefined);
    expect(body.links.next).to.contain(querystring);
    const short = presentList(result(100, []), {
      query: parseListQuery('q=solar&page=2'),
      querystring: 'q=solar&page=2',
      base: BASE,
      highlight: undefined,
    });
    expect(short.linkHeader).to.contain('rel="next"');
  });
});

describe('api present: list highlights (issue 46)', () => {
  const present = (querystring: string) =>
    presentList(result(1, [listSource]), {
      query: parseListQuery(querystring),
      querystring,
      base: BASE,
      highlight: highlighterFor(parseListQuery(querystring)),
    }).body.data[0];

  it('only with highlight=true and a q; spans of the served values, over the fields the item carries', () => {
    expect(present('q=kahone')).to.not.have.property('highlights');
    expect(present('highlight=true')).to.not.have.property('highlights');
    expect(present('q=kahone&highlight=false')).to.not.have.property('highlights');
    expect(present('q=kahone senegal engie&highlight=true')?.highlights).to.deep.equal({
      project_name: [[0, 6]],
      developer: [[0, 5]],
      location: [[9, 16]],
    });
    expect(present('q=kahone pv&highlight=true')?.highlights).to.deep.equal({
      project_name: [[0, 6]],
      technology: true,
    });
    expect(present('q=kahone senegal&highlight=true&fields=project_name')?.highlights).to.deep.equal({
      project_name: [[0, 6]],
    });
  });
});
