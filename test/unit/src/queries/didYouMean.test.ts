// "Did you mean" after an empty answer: the likeliest rewrites counted in one _msearch, the first that finds
// something offered. Against a gateway that counts from a table and records what it was sent; the rewrites
// themselves are rewrite/rewrites.test.ts's, the count bodies listSearch's and suggestSearch's.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import type { SearchGateway, SearchRequestBody } from '../../../../src/gateway/gateway.js';
import { Vocabulary } from '../../../../src/matching/vocabulary.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { parseSuggestQuery } from '../../../../src/params/suggest.js';
import {
  firstThatFinds,
  listDidYouMean,
  REWRITES_COUNTED,
  suggestDidYouMean,
} from '../../../../src/queries/didYouMean.js';
import { buildListCountSearch } from '../../../../src/queries/listSearch.js';

const counted = (total: number | estypes.SearchTotalHits): estypes.MsearchMultiSearchItem => ({
  took: 1,
  timed_out: false,
  _shards: { total: 1, successful: 1, failed: 0 },
  hits: { total, hits: [] },
  status: 200,
});

/** A gateway whose _msearch answers each count body from `totals` (by its place), recording every call. */
function countingGateway(totals: (number | estypes.SearchTotalHits)[]) {
  const calls: SearchRequestBody[][] = [];
  const gateway = {
    search: () => Promise.reject(new Error('a single search was sent')),
    msearch: async (bodies: readonly SearchRequestBody[]) => {
      calls.push([...bodies]);
      return bodies.map((_, index) => counted(totals[index] ?? 0));
    },
  } as unknown as SearchGateway;
  return { gateway, calls };
}

const vocabulary = new Vocabulary(
  Object.entries({ kafue: 3, gorge: 5, south: 50, hydro: 200, power: 400, solar: 900, park: 500 }),
);

describe('queries: did you mean (didYouMean.ts, issue 69)', () => {
  describe('firstThatFinds', () => {
    const bodyOf = (q: string) => ({ query: { match: { q } } }) as unknown as SearchRequestBody;

    it('counts the rewrites in one _msearch and offers the first, best first, that finds something', async () => {
      const { gateway, calls } = countingGateway([0, 4, 9]);
      const offer = await firstThatFinds(gateway, ['a', 'b', 'c'], bodyOf);
      expect(offer).to.deep.equal({ q: 'b', total: 4 });
      expect(calls).to.deep.equal([['a', 'b', 'c'].map(bodyOf)]);
    });

    it('reads a total given as an object, as Elasticsearch gives it by default', async () => {
      const { gateway } = countingGateway([
        { value: 0, relation: 'eq' },
        { value: 12, relation: 'eq' },
      ]);
      expect(await firstThatFinds(gateway, ['a', 'b'], bodyOf)).to.deep.equal({ q: 'b', total: 12 });
    });

    it('offers nothing when no rewrite finds anything, and asks nothing for no rewrite', async () => {
      const none = countingGateway([0, 0]);
      expect(await firstThatFinds(none.gateway, ['a', 'b'], bodyOf)).to.equal(undefined);
      const asked = countingGateway([]);
      expect(await firstThatFinds(asked.gateway, [], bodyOf)).to.equal(undefined);
      expect(asked.calls).to.have.length(0);
    });

    it(`counts at most ${REWRITES_COUNTED} rewrites`, async () => {
      const { gateway, calls } = countingGateway([]);
      const many = Array.from({ length: REWRITES_COUNTED + 3 }, (_, index) => `q${index}`);
      await firstThatFinds(gateway, many, bodyOf);
      expect(calls[0]).to.have.length(REWRITES_COUNTED);
    });
  });

  describe('listDidYouMean', () => {
    it("counts each rewrite with the request's own filters, and offers the one that finds something", async () => {
      const query = parseListQuery('q=KafueGorgeSouth+power&technology=hydro&country=zm');
      const { gateway, calls } = countingGateway([2]);
      const offer = await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary);
      expect(offer).to.deep.equal({ q: 'Kafue Gorge South power', total: 2 });
      expect(calls[0]![0]).to.deep.equal(buildListCountSearch({ ...query, q: 'Kafue Gorge South power' }));
    });

    it('sends nothing when q has no rewrite (one word the index holds)', async () => {
      const query = parseListQuery('q=solar');
      const { gateway, calls } = countingGateway([5]);
      expect(await listDidYouMean(gateway, { ...query, q: query.q! }, vocabulary)).to.equal(undefined);
      expect(calls).to.have.length(0);
    });
  });

  describe('suggestDidYouMean', () => {
    it('offers the rewrite of the typed text that suggests something', async () => {
      const { gateway, calls } = countingGateway([3]);
      const offer = await suggestDidYouMean(gateway, parseSuggestQuery('q=kafue+zorblat+gorge'), vocabulary);
      expect(calls).to.have.length(1);
      expect(offer).to.deep.equal({ q: 'kafue gorge', total: 3 });
    });
  });
});
