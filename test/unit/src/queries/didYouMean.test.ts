// "Did you mean" after an empty answer (issue 69; its cost, issue 72): one cheap search says which of the likeliest
// rewrites some PPA holds every word of, then only the first held one (and any before it that cannot be judged) is
// counted exactly; under pressure or on failure nothing is offered and the answer says null. Against a gateway that
// answers from tables and records what it was sent; the rewrites themselves are rewrite/rewrites.test.ts's, the
// count bodies listSearch's and suggestSearch's.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import type { SearchGateway, SearchOptions, SearchRequestBody } from '../../../../src/gateway/gateway.js';
import {
  SearchAbandonedError,
  SearchDeclinedError,
  SearchUnavailableError,
} from '../../../../src/gateway/searchErrors.js';
import { Vocabulary } from '../../../../src/matching/vocabulary.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { parseSuggestQuery } from '../../../../src/params/suggest.js';
import {
  firstThatFinds,
  listDidYouMean,
  REWRITES_CONSIDERED,
  REWRITES_COUNTED,
  suggestDidYouMean,
  type RewriteCounting,
} from '../../../../src/queries/didYouMean.js';
import { buildListCountSearch } from '../../../../src/queries/listSearch.js';

const answered = (total: number, aggregations?: unknown) =>
  ({
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: { total: { value: total, relation: 'eq' }, hits: [] },
    ...(aggregations ? { aggregations } : {}),
  }) as estypes.SearchResponse;

interface Sent {
  body: SearchRequestBody;
  options: SearchOptions | undefined;
}

/**
 * A gateway that answers the held-words search from `held` (the rewrites' places some PPA holds the words of) and
 * each count from `totals` (by the rewrite counted), recording every search sent, in order.
 */
function tableGateway(held: number[], totals: Record<string, number>, fail?: Error) {
  const sent: Sent[] = [];
  const answer = (body: SearchRequestBody) => {
    const filters = (body.aggs?.held as { filters?: { filters: Record<string, unknown> } } | undefined)
      ?.filters?.filters;
    if (filters) {
      const buckets = Object.fromEntries(
        Object.keys(filters).map((key) => [key, { doc_count: held.includes(Number(key)) ? 1 : 0 }]),
      );
      return answered(0, { held: { buckets } });
    }
    return answered(totals[(body.query as { q: string }).q] ?? 0);
  };
  const gateway = {
    search: async (body: SearchRequestBody, options?: SearchOptions) => {
      sent.push({ body, options });
      if (fail) throw fail;
      return answer(body);
    },
    msearch: async (bodies: readonly SearchRequestBody[], options?: SearchOptions) => {
      for (const body of bodies) sent.push({ body, options });
      if (fail) throw fail;
      return bodies.map(answer);
    },
  } as unknown as SearchGateway;
  return { gateway, sent };
}

/** Rewrites named a, b, c…; those in `unjudged` keep a word the vocabulary does not hold. */
function counting(rewrites: string[], unjudged: string[] = []): RewriteCounting {
  return {
    rewrites,
    scope: { match_all: {} },
    heldWordsOf: (q) => (unjudged.includes(q) ? undefined : { whole: [q] }),
    fields: ['name'],
    countOf: (q) => ({ query: { q } }) as unknown as SearchRequestBody,
  };
}

const isCount = ({ body }: Sent) => body.aggs === undefined;
const counted = (sent: Sent[]) => sent.filter(isCount).map(({ body }) => (body.query as { q: string }).q);

const vocabulary = new Vocabulary(
  Object.entries({ kafue: 3, gorge: 5, south: 50, hydro: 200, power: 400, solar: 900, park: 500 }),
);

describe('queries: did you mean (didYouMean.ts, issues 69 and 72)', () => {
  describe('firstThatFinds', () => {
    it('asks once which rewrites some PPA holds, then counts exactly only the first held one', async () => {
      const { gateway, sent } = tableGateway([1, 2], { b: 4, c: 9 });
      expect(await firstThatFinds(gateway, counting(['a', 'b', 'c']))).to.deep.equal({ q: 'b', total: 4 });
      expect(sent).to.have.length(2);
      expect(
        Object.keys((sent[0]!.body.aggs!.held as { filters: { filters: object } }).filters.filters),
      ).to.deep.equal(['0', '1', '2']);
      expect(sent[0]!.body.size).to.equal(0);
      expect(counted(sent)).to.deep.equal(['b']);
    });

    it('counts a rewrite it cannot judge before the first held one, at most REWRITES_COUNTED in all', async () => {
      const first = tableGateway([2], { a: 0, c: 7 });
      const offer = await firstThatFinds(first.gateway, counting(['a', 'b', 'c', 'd'], ['a']));
      expect(offer).to.deep.equal({ q: 'c', total: 7 });
      expect(counted(first.sent)).to.deep.equal(['a', 'c']);
      const capped = tableGateway([3], {});
      await firstThatFinds(capped.gateway, counting(['a', 'b', 'c', 'd'], ['a', 'b', 'c']));
      expect(counted(capped.sent)).to.have.length(REWRITES_COUNTED);
    });

    it('judges nothing it cannot: rewrites none of which the vocabulary holds are counted without asking', async () => {
      const { gateway, sent } = tableGateway([], { b: 2 });
      expect(await firstThatFinds(gateway, counting(['a', 'b'], ['a', 'b']))).to.deep.equal({
        q: 'b',
        total: 2,
      });
      expect(sent.every(isCount)).to.equal(true);
    });

    it('counts nothing, and offers nothing, when no PPA holds any rewrite', async () => {
      const { gateway, sent } = tableGateway([], { a: 5 });
      expect(await firstThatFinds(gateway, counting(['a', 'b']))).to.equal(undefined);
      expect(sent).to.have.length(1);
      const none = tableGateway([], {});
      expect(await firstThatFinds(none.gateway, counting([]))).to.equal(undefined);
      expect(none.sent).to.have.length(0);
    });

    it(`considers at most ${REWRITES_CONSIDERED} rewrites`, async () => {
      const { gateway, sent } = tableGateway([], {});
      const many = Array.from({ length: REWRITES_CONSIDERED + 3 }, (_, index) => `q${index}`);
      await firstThatFinds(gateway, counting(many));
      const filters = (sent[0]!.body.aggs!.held as { filters: { filters: object } }).filters.filters;
      expect(Object.keys(filters)).to.have.length(REWRITES_CONSIDERED);
    });

    it("sends every search as optional, on the answer's own deadline", async () => {
      const { gateway, sent } = tableGateway([0], { a: 1 });
      await firstThatFinds(gateway, counting(['a']), 1234.5);
      expect(sent.map(({ options }) => options)).to.deep.equal([
        { optional: true, startedAt: 1234.5 },
        { optional: true, startedAt: 1234.5 },
      ]);
    });

    it('gives null, never an error, when its search is declined under pressure or fails', async () => {
      for (const error of [new SearchDeclinedError(), new SearchUnavailableError('timed out')]) {
        const { gateway } = tableGateway([0], { a: 1 }, error);
        expect(await firstThatFinds(gateway, counting(['a']))).to.equal(null);
      }
    });

    it('lets a client gone, or a bug, through', async () => {
      for (const error of [new SearchAbandonedError(), new TypeError('a bug')]) {
        const { gateway } = tableGateway([0], { a: 1 }, error);
        let thrown: unknown;
        await firstThatFinds(gateway, counting(['a'])).catch((caught: unknown) => (thrown = caught));
        expect(thrown).to.equal(error);
      }
    });
  });

  describe('listDidYouMean', () => {
    it("judges and counts each rewrite with the request's own filters, and offers the one that finds", async () => {
      const query = parseListQuery('q=KafueGorgeSouth+power&technology=hydro&country=zm');
      const rewrite = 'Kafue Gorge South power';
      const sent: SearchRequestBody[] = [];
      const gateway = {
        search: async (body: SearchRequestBody) => {
          sent.push(body);
          return body.aggs ? answered(0, { held: { buckets: { 0: { doc_count: 1 } } } }) : answered(2);
        },
      } as unknown as SearchGateway;
      expect(await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary)).to.deep.equal({
        q: rewrite,
        total: 2,
      });
      expect(sent[0]!.query).to.deep.equal(buildListCountSearch({ ...query, q: undefined }).query);
      expect(JSON.stringify(sent[0]!.aggs)).to.include('"kafue"').and.include('"power"');
      expect(sent[1]).to.deep.equal(buildListCountSearch({ ...query, q: rewrite }));
    });

    it('sends nothing when q has no rewrite (one word the index holds)', async () => {
      const query = parseListQuery('q=solar');
      const { gateway, sent } = tableGateway([0], { solar: 5 });
      expect(await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary)).to.equal(undefined);
      expect(sent).to.have.length(0);
    });
  });

  describe('which rewrites can be judged by the words a PPA holds', () => {
    /** The held-words filter each rewrite got, by its place (none: it could not be judged so). */
    async function judged(q: string) {
      let probe: SearchRequestBody | undefined;
      const gateway = {
        search: async (body: SearchRequestBody) => {
          if (body.aggs) probe = body;
          return answered(0, { held: { buckets: {} } });
        },
        msearch: async (bodies: readonly SearchRequestBody[]) => bodies.map(() => answered(0)),
      } as unknown as SearchGateway;
      const query = parseListQuery(`q=${encodeURIComponent(q)}`);
      await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary);
      return (probe?.aggs?.held as { filters: { filters: Record<string, unknown> } } | undefined)?.filters
        .filters;
    }

    it('looks a held word up whole, and the word being typed as the start of one', async () => {
      const filters = await judged('Kafue zorblat Gor');
      const each = Object.values(filters ?? {}).map((filter) => JSON.stringify(filter));
      expect(
        each.some(
          (filter) =>
            filter.includes('"kafue"') && /"gor","fields":\[[^\]]*\],"type":"bool_prefix"/.test(filter),
        ),
      ).to.equal(true);
    });

    it('cannot judge a rewrite keeping a word the vocabulary does not hold, nor a start it holds no word of', async () => {
      // "kafeu" (a typo the forgiving match forgives) is kept as typed in every rewrite: none can be judged.
      expect(await judged('kafeu zorblat gorge')).to.equal(undefined);
      // "gorhe", the word being typed with a typo in it: no word the vocabulary holds starts with it.
      expect(await judged('Kafue zorblat gorhe')).to.equal(undefined);
    });
  });

  describe('suggestDidYouMean', () => {
    it('offers the rewrite of the typed text that suggests something', async () => {
      const sent: SearchRequestBody[] = [];
      const gateway = {
        search: async (body: SearchRequestBody) => {
          sent.push(body);
          return body.aggs ? answered(0, { held: { buckets: { 0: { doc_count: 3 } } } }) : answered(3);
        },
      } as unknown as SearchGateway;
      const offer = await suggestDidYouMean(gateway, parseSuggestQuery('q=kafue+zorblat+gorge'), vocabulary);
      expect(sent).to.have.length(2);
      expect(offer).to.deep.equal({ q: 'kafue gorge', total: 3 });
    });
  });
});
