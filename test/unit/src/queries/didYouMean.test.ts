// "Did you mean" after an empty answer (issue 69; its cost, issue 72): one cheap search says which of the likeliest
// rewrites some PPA holds every word of, then only the first held one (and any before it that cannot be judged) is
// counted exactly; under pressure or on failure nothing is offered and the answer says null. Against a gateway that
// answers from tables and records what it was sent; the rewrites themselves are rewrite/rewrites.test.ts's, the
// count bodies listSearch's and suggestSearch's.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
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
  listHeldWords,
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
 * A gateway that answers the first search from `held` (the rewrites' places some PPA holds the words of) and
 * `totals` (the likeliest rewrite's count, in its filter aggregation), each count from `totals` (by the rewrite
 * counted), recording every search sent, in order.
 */
function tableGateway(held: number[], totals: Record<string, number>, fail?: Error) {
  const sent: Sent[] = [];
  const answer = (body: SearchRequestBody) => {
    const first = body.aggs?.first as { filter: { q: string } } | undefined;
    if (first) {
      const filters = (body.aggs?.held as { filters: { filters: object } } | undefined)?.filters.filters;
      const buckets = Object.fromEntries(
        Object.keys(filters ?? {}).map((key) => [key, { doc_count: held.includes(Number(key)) ? 1 : 0 }]),
      );
      return answered(0, { first: { doc_count: totals[first.filter.q] ?? 0 }, held: { buckets } });
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
const heldKeys = (sent: Sent) =>
  Object.keys((sent.body.aggs?.held as { filters: { filters: object } } | undefined)?.filters.filters ?? {});

const vocabulary = new Vocabulary(
  Object.entries({ kafue: 3, gorge: 5, south: 50, hydro: 200, power: 400, solar: 900, park: 500 }),
);

describe('queries: did you mean (didYouMean.ts, issues 69 and 72)', () => {
  describe('firstThatFinds', () => {
    it('offers the likeliest rewrite from one search when it finds something: its exact count', async () => {
      const { gateway, sent } = tableGateway([], { a: 3, b: 4 });
      expect(await firstThatFinds(gateway, counting(['a', 'b', 'c']))).to.deep.equal({ q: 'a', total: 3 });
      expect(sent).to.have.length(1);
      expect(sent[0]!.body).to.deep.include({ size: 0, track_total_hits: false, query: { match_all: {} } });
      expect(sent[0]!.body.aggs!.first).to.deep.equal({ filter: { q: 'a' } });
      // The others are judged in the same search, the likeliest not (its count says more).
      expect(heldKeys(sent[0]!)).to.deep.equal(['1', '2']);
    });

    it('when the likeliest finds nothing, counts exactly only the first held one of the others', async () => {
      const { gateway, sent } = tableGateway([2, 3], { c: 9, d: 5 });
      expect(await firstThatFinds(gateway, counting(['a', 'b', 'c', 'd']))).to.deep.equal({
        q: 'c',
        total: 9,
      });
      expect(sent).to.have.length(2);
      expect(counted(sent)).to.deep.equal(['c']);
    });

    it('counts a rewrite it cannot judge before the first held one, at most REWRITES_COUNTED counts in all', async () => {
      const first = tableGateway([3], { b: 0, d: 7 });
      const offer = await firstThatFinds(first.gateway, counting(['a', 'b', 'c', 'd'], ['b']));
      // REWRITES_COUNTED is 2: the likeliest, then one more (b, which cannot be judged, before d).
      expect(REWRITES_COUNTED).to.equal(2);
      expect(offer).to.equal(undefined);
      expect(counted(first.sent)).to.deep.equal(['b']);
      const judged = tableGateway([3], { d: 7 });
      expect(await firstThatFinds(judged.gateway, counting(['a', 'b', 'c', 'd']))).to.deep.equal({
        q: 'd',
        total: 7,
      });
    });

    it('judges nothing it cannot: the first search then only counts the likeliest', async () => {
      const { gateway, sent } = tableGateway([], { b: 2 });
      expect(await firstThatFinds(gateway, counting(['a', 'b'], ['a', 'b']))).to.deep.equal({
        q: 'b',
        total: 2,
      });
      expect(sent[0]!.body.aggs).to.not.have.property('held');
      expect(counted(sent)).to.deep.equal(['b']);
    });

    it('counts nothing more, and offers nothing, when the likeliest finds nothing and no other is held', async () => {
      const { gateway, sent } = tableGateway([], { b: 5 });
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
      // The likeliest counted, the others judged.
      expect(heldKeys(sent[0]!)).to.have.length(REWRITES_CONSIDERED - 1);
    });

    it("sends every search as optional, on the answer's own deadline", async () => {
      const { gateway, sent } = tableGateway([1], { b: 1 });
      await firstThatFinds(gateway, counting(['a', 'b']), 1234.5);
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
          return body.aggs ? answered(0, { first: { doc_count: 2 } }) : answered(0);
        },
      } as unknown as SearchGateway;
      expect(await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary)).to.deep.equal({
        q: rewrite,
        total: 2,
      });
      expect(sent[0]!.query).to.deep.equal(buildListCountSearch({ ...query, q: undefined }).query);
      expect(sent[0]!.aggs!.first).to.deep.equal({
        filter: buildListCountSearch({ ...query, q: new SearchText(rewrite) }).query,
      });
      expect(sent).to.have.length(1);
    });

    it('sends nothing when q has no rewrite (one word the index holds)', async () => {
      const query = parseListQuery('q=solar');
      const { gateway, sent } = tableGateway([0], { solar: 5 });
      expect(await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary)).to.equal(undefined);
      expect(sent).to.have.length(0);
    });
  });

  describe('which rewrites can be judged by the words a PPA holds', () => {
    it('a list rewrite: its words whole, and the word being typed as the start of one', () => {
      expect(listHeldWords('Kafue Gor', vocabulary)).to.deep.equal({ whole: ['kafue'], start: 'gor' });
      expect(listHeldWords('Gorge', vocabulary)).to.deep.equal({ whole: [], start: 'gorge' });
    });

    it('none for a word the vocabulary does not hold, a start it holds no word of, or operators', () => {
      // "kafeu": a typo the forgiving match forgives, kept as typed.
      expect(listHeldWords('kafeu gorge', vocabulary)).to.equal(undefined);
      // "gorhe", the word being typed with a typo in it: no word the vocabulary holds starts with it.
      expect(listHeldWords('Kafue gorhe', vocabulary)).to.equal(undefined);
      expect(listHeldWords('Kafue "gorge south"', vocabulary)).to.equal(undefined);
    });

    it('looks the words up as written, and the start as a start (bool_prefix), in the given fields', async () => {
      const { gateway, sent } = tableGateway([], {});
      const judgedAs = (q: string) => (q === 'b' ? { whole: ['kafue'], start: 'gor' } : undefined);
      await firstThatFinds(gateway, { ...counting(['a', 'b']), heldWordsOf: judgedAs });
      const filters = (sent[0]!.body.aggs!.held as { filters: { filters: Record<string, unknown> } }).filters;
      expect(filters.filters).to.deep.equal({
        1: {
          bool: {
            filter: [
              { multi_match: { query: 'kafue', fields: ['name'] } },
              { multi_match: { query: 'gor', fields: ['name'], type: 'bool_prefix' } },
            ],
          },
        },
      });
    });
  });

  describe('suggestDidYouMean', () => {
    it('offers the rewrite of the typed text that suggests something', async () => {
      const sent: SearchRequestBody[] = [];
      const gateway = {
        search: async (body: SearchRequestBody) => {
          sent.push(body);
          return body.aggs ? answered(0, { first: { doc_count: 3 } }) : answered(0);
        },
      } as unknown as SearchGateway;
      const offer = await suggestDidYouMean(gateway, parseSuggestQuery('q=kafue+zorblat+gorge'), vocabulary);
      expect(sent).to.have.length(1);
      expect(JSON.stringify(sent[0]!.aggs!.first)).to.include('name');
      expect(offer).to.deep.equal({ q: 'kafue gorge', total: 3 });
    });
  });
});
