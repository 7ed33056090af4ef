// reindex/plan: `reindex --plan`, what a reindex from this source would change for clients, building nothing. Over
// the fake Elasticsearch and an NDJSON stream: the counts and first slugs of each kind against the live generation,
// whether the removal guard would stop the reindex, everything "added" when the alias does not exist, invalid
// records counted (with --skip-invalid) or refused, and not one write: no index, alias, lock or log touched. The
// plan as a person reads it, its listed slugs cut at 20 and made terminal-safe.
import { expect } from 'chai';
import {
  describePlan,
  planReindex,
  PLAN_EXAMPLES,
  type ReindexPlan,
} from '../../../../indexer/reindex/plan.js';
import type { ReindexOptions } from '../../../../indexer/reindex/reindex.js';
import { InvalidSourceError } from '../../../../indexer/sources/validateSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ndjsonStream, ppaRecord } from '../../../support/ppaRecords.js';

const LIVE = generationName('ppas', 1);
const slugs = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(2, '0')}`);

function plan(es: FakeElasticsearch, records: readonly unknown[], options: Partial<ReindexOptions> = {}) {
  return planReindex({ client: es.client, alias: 'ppas', source: ndjsonStream(records), ...options });
}

/** Requests that would change something (searches are POSTs that read). */
const writes = (es: FakeElasticsearch) =>
  es.requests().filter((request) => !/^(GET|HEAD) |\/_search$|\/_count$/.test(request));

describe('indexer/reindex/plan', () => {
  it('counts and names the changes against the live generation, and says the guard would let it through', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['kept', 'edited', 'hidden', 'gone'], { live: true });
    const indicesBefore = [...es.indices.keys()];
    const result = await plan(
      es,
      [
        ppaRecord('kept'),
        ppaRecord('edited', { tariff: 'capacity_and_energy' }),
        ppaRecord('hidden', { published: false }),
        ppaRecord('new'),
      ],
      { maxRemoved: { share: 0.5 } },
    );
    expect(result).to.deep.equal({
      alias: 'ppas',
      live: LIVE,
      added: 1,
      updated: 1,
      removed: 2,
      unchanged: 1,
      examples: { added: ['new'], updated: ['edited'], removed: ['gone', 'hidden'] },
      max_removed: '50%',
      would_stop: false,
      invalid: 0,
    } satisfies ReindexPlan);
    expect(writes(es)).to.deep.equal([]);
    expect([...es.indices.keys()]).to.deep.equal(indicesBefore);
    expect(es.aliasTarget('ppas')).to.equal(LIVE);
  });

  it('says the reindex would stop past --max-removed (5% by default)', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, slugs(40, 'p'), { live: true });
    const result = await plan(
      es,
      slugs(37, 'p').map((slug) => ppaRecord(slug)),
    );
    expect(result).to.include({ removed: 3, unchanged: 37, max_removed: '5%', would_stop: true });
    expect(describePlan(result).split('\n').at(-1)).to.equal(
      'It would stop before the swap (exit 5): more removals than --max-removed 5% allows.',
    );
  });

  it('adds everything when the alias does not exist, and never stops then', async () => {
    const es = fakeElasticsearch();
    const result = await plan(es, [ppaRecord('b'), ppaRecord('a')], { maxRemoved: { count: 0 } });
    expect(result).to.include({ live: null, added: 2, removed: 0, would_stop: false });
    expect(result.examples.added).to.deep.equal(['a', 'b']);
    expect(writes(es)).to.deep.equal([]);
  });

  it('counts invalid records with --skip-invalid, and refuses them without', async () => {
    const es = fakeElasticsearch();
    const records = [ppaRecord('a'), ppaRecord('b', { capacity_mw: -1 })];
    expect(await plan(es, records, { skipInvalid: true })).to.include({ invalid: 1, added: 1 });
    let error: unknown;
    await plan(es, records).catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(InvalidSourceError);
  });

  it('prints a line per kind with its first 20 slugs, and the verdict, terminal-safe', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['x'], { live: true });
    const result = await plan(es, [ppaRecord('x'), ...slugs(25, 'n').map((slug) => ppaRecord(slug))]);
    expect(result.examples.added).to.have.length(PLAN_EXAMPLES);
    const lines = describePlan(result).split('\n');
    expect(lines[0]).to.equal(
      `plan: a reindex of alias "ppas" from this source, against the live generation ${LIVE}:`,
    );
    expect(lines[1]).to.equal(`  added           25  ${slugs(20, 'n').join(', ')}, … 5 more`);
    expect(lines.slice(2)).to.deep.equal([
      '  updated          0',
      '  removed          0',
      '  unchanged        1',
      'Within --max-removed 5%. Nothing was built.',
    ]);
    const hostile = describePlan({ ...result, live: null, alias: 'ppas\u001b[31m' });
    expect(hostile).to.include('against nothing (alias "ppas');
    expect(hostile).to.not.include('\u001b');
  });
});
