// The list's plan runs its searches in one round trip and reads the facet buckets itself, asking once more, one
// aggregation per facet, when the combined aggregation could not hold every value. Against a recording gateway:
// the plan's flow is what is tested here; the searches' bodies are listSearch.test.ts's, Elasticsearch's answers
// the integration tests'.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import type { ListSource } from '../../../../indexContract/sourceFields.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { COMBINED_FACETS_AGGREGATION } from '../../../../src/queries/facetAggregations.js';
import type { SearchGateway, SearchRequestBody } from '../../../../src/gateway/gateway.js';
import {
  buildFacetCountSearch,
  buildListCountSearch,
  buildListSearches,
} from '../../../../src/queries/listSearch.js';
import { Vocabulary } from '../../../../src/matching/vocabulary.js';
import { planList } from '../../../../src/queries/listPlan.js';

type Aggregations = Record<string, unknown>;

function answer(aggregations?: Aggregations): estypes.SearchResponse<ListSource> {
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: { total: { value: 3, relation: 'eq' }, hits: [] },
    ...(aggregations ? { aggregations: aggregations as never } : {}),
  };
}

const combined = (buckets: [string, number][], sumOther = 0) => ({
  [COMBINED_FACETS_AGGREGATION]: {
    doc_count: 3,
    values: {
      sum_other_doc_count: sumOther,
      buckets: buckets.map(([key, doc_count]) => ({ key, doc_count })),
    },
  },
});

/** A gateway that answers from a script, in order, and records what it was sent, call by call. */
function recordingGateway(script: Aggregations[]) {
  const calls: { kind: 'search' | 'msearch'; bodies: SearchRequestBody[] }[] = [];
  let next = 0;
  const gateway = {
    search: async (body: SearchRequestBody) => {
      calls.push({ kind: 'search', bodies: [body] });
      return answer(script[next++]);
    },
    msearch: async (bodies: readonly SearchRequestBody[]) => {
      calls.push({ kind: 'msearch', bodies: [...bodies] });
      return bodies.map(() => answer(script[next++]));
    },
  } as unknown as SearchGateway;
  return { gateway, calls };
}

describe('api search: the list plan', () => {
  it('without facets: one search, and no facets in the result', async () => {
    const query = parseListQuery('technology=wind');
    const { gateway, calls } = recordingGateway([{}]);
    const result = await planList(query).run(gateway);
    expect(calls).to.deep.equal([{ kind: 'search', bodies: buildListSearches(query) }]);
    expect(result).to.not.have.property('facets');
    expect(result.response.hits.total).to.deep.equal({ value: 3, relation: 'eq' });
  });

  it('facets without q: the page and the counts in one _msearch, the buckets read from the counts', async () => {
    const query = parseListQuery('facets=technology,country');
    const counts = combined([
      ['technology:wind', 2],
      ['country:KE', 3],
      ['technology:hydro', 1],
    ]);
    const { gateway, calls } = recordingGateway([{}, counts]);
    const result = await planList(query).run(gateway);
    expect(calls).to.deep.equal([{ kind: 'msearch', bodies: buildListSearches(query) }]);
    expect(result.facets).to.deep.equal({
      technology: [
        { value: 'wind', count: 2 },
        { value: 'hydro', count: 1 },
      ],
      country: [{ value: 'KE', count: 3 }],
    });
  });

  it('facets with q: one search whose own aggregations give the buckets', async () => {
    const query = parseListQuery('q=solar&facets=tariff');
    const { gateway, calls } = recordingGateway([combined([['tariff:fixed', 4]])]);
    const result = await planList(query).run(gateway);
    expect(calls.map((call) => call.kind)).to.deep.equal(['search']);
    expect(result.facets).to.deep.equal({ tariff: [{ value: 'fixed', count: 4 }] });
  });

  it('counts the facets once more, one aggregation each, when the combined one could not hold every value', async () => {
    const query = parseListQuery('facets=country');
    const separate = { facet_country: { values: { buckets: [{ key: 'SN', doc_count: 9 }] } } };
    const { gateway, calls } = recordingGateway([{}, combined([['country:KE', 3]], 5), separate]);
    const result = await planList(query).run(gateway);
    expect(calls.map((call) => call.kind)).to.deep.equal(['msearch', 'search']);
    expect(calls[1]!.bodies).to.deep.equal([buildFacetCountSearch(query, ['country'], { combine: false })]);
    expect(result.facets).to.deep.equal({ country: [{ value: 'SN', count: 9 }] });
  });
});

describe('api search: the list plan, did you mean (issues 69 and 72)', () => {
  const vocabulary = new Vocabulary([
    ['kafue', 3],
    ['gorge', 5],
    ['south', 2],
  ]);
  const withTotal = (total: number): estypes.SearchResponse<ListSource> => ({
    ...answer(),
    hits: { total: { value: total, relation: 'eq' }, hits: [] },
  });

  /**
   * A gateway whose page finds `pageTotal`, whose held-words search says every rewrite is held, and whose counts
   * find what `counts` says per rewritten q.
   */
  function gatewayOf(pageTotal: number, counts: Record<string, number>) {
    const calls: { kind: 'search' | 'msearch'; bodies: SearchRequestBody[] }[] = [];
    const countedQ = (query: unknown) =>
      Object.keys(counts).find((text) => JSON.stringify(query) === JSON.stringify(countOf(text).query));
    const answerOf = (body: SearchRequestBody) => {
      const first = body.aggs?.first as { filter: unknown } | undefined;
      if (first) {
        const held = (body.aggs?.held as { filters?: { filters: object } } | undefined)?.filters?.filters;
        const buckets = Object.fromEntries(Object.keys(held ?? {}).map((key) => [key, { doc_count: 1 }]));
        const q = countedQ(first.filter);
        const aggregations = { first: { doc_count: q === undefined ? 0 : counts[q]! }, held: { buckets } };
        return { ...withTotal(0), aggregations };
      }
      const q = countedQ(body.query);
      if (q !== undefined) return withTotal(counts[q]!);
      return withTotal(body.size === 0 ? 0 : pageTotal);
    };
    const gateway = {
      search: async (body: SearchRequestBody) => {
        calls.push({ kind: 'search', bodies: [body] });
        return answerOf(body);
      },
      msearch: async (bodies: readonly SearchRequestBody[]) => {
        calls.push({ kind: 'msearch', bodies: [...bodies] });
        return bodies.map(answerOf);
      },
    } as unknown as SearchGateway;
    return { gateway, calls };
  }
  const query = parseListQuery('q=Kafue%20zorblat%20Gorge&technology=wind&page=2');
  const countOf = (q: string) => buildListCountSearch({ ...query, q: new SearchText(q) });

  it('a page with results: the one search it always was, whatever the vocabulary', async () => {
    const { gateway, calls } = gatewayOf(4, {});
    const result = await planList(query, vocabulary).run(gateway);
    expect(calls).to.deep.equal([{ kind: 'search', bodies: buildListSearches(query) }]);
    expect(result).to.not.have.property('didYouMean');
  });

  it('an empty answer: one search more, counting the likeliest rewrite exactly under the same filters', async () => {
    const { gateway, calls } = gatewayOf(0, { 'Kafue Gorge': 7 });
    const result = await planList(query, vocabulary).run(gateway);
    expect(calls.map((call) => call.kind)).to.deep.equal(['search', 'search']);
    expect(calls[1]!.bodies[0]).to.deep.include({ size: 0, track_total_hits: false });
    expect(JSON.stringify(calls[1]!.bodies[0]!.query)).to.include('"technology":["wind"]');
    expect(calls[1]!.bodies[0]!.aggs!.first).to.deep.equal({ filter: countOf('Kafue Gorge').query });
    expect(result.didYouMean).to.deep.equal({ q: 'Kafue Gorge', total: 7 });
  });

  it('an empty answer whose rewrites find nothing, or no vocabulary: nothing offered', async () => {
    const none = gatewayOf(0, {});
    expect(await planList(query, vocabulary).run(none.gateway)).to.not.have.property('didYouMean');
    // The likeliest rewrite found nothing, and no other is held: nothing more is asked.
    expect(none.calls).to.have.length(2);
    const unread = gatewayOf(0, { 'Kafue Gorge': 7 });
    expect(await planList(query).run(unread.gateway)).to.not.have.property('didYouMean');
    expect(unread.calls).to.have.length(1);
  });
});
