// Suggestions go first under pressure (issue 72): while admission queues or sheds, an empty answer is sent at
// once with `did_you_mean: null` (its rewrites never searched for), and counted; a suggestion never turns the
// answer it decorates into a refusal or a timeout. Against a real Elasticsearch slowed on purpose by a TCP proxy
// that counts the searches it lets through. No timing assertions: what is checked is what reached Elasticsearch,
// what each answer says, and admission's counts.
import { expect } from 'chai';
import { OVERLOADED_PROBLEM_TYPE } from '../../src/http/problem.js';
import type { TestApp, TestAppOptions } from '../support/app.js';
import { slowedElasticsearch } from '../support/slowedElasticsearch.js';

interface Answer {
  status: number;
  type?: string;
  total?: number;
  didYouMean?: unknown;
  hasDidYouMean: boolean;
}

async function ask(app: TestApp, path: string): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`);
  const body = (await response.json()) as {
    type?: string;
    meta?: { total: number; did_you_mean?: unknown };
    did_you_mean?: unknown;
  };
  const holder = body.meta ?? body;
  return {
    status: response.status,
    ...(body.type ? { type: body.type } : {}),
    ...(body.meta ? { total: body.meta.total } : {}),
    didYouMean: holder.did_you_mean,
    hasDidYouMean: 'did_you_mean' in holder,
  };
}

/** Distinct misses the sample offers a rewrite for: a name's words, and one the data does not hold. */
const misses = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `/api/v1/ppas?q=Mocuba+Geothermal+zorb${label}${i}x`);

describe('api: did you mean under pressure (issue 72)', function () {
  this.timeout(120_000);
  const slowed = slowedElasticsearch('api-dym-pressure');
  const proxy = () => slowed.proxy();
  const app = (options: Omit<TestAppOptions, 'alias'>) => slowed.app({ ...options, withMetrics: true });

  it('past capacity, an admitted empty answer goes at once with did_you_mean null: its rewrites never searched, counted', async () => {
    const es = await proxy();
    const small = await app({
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: { admissionMaxInFlight: 2, admissionTargetMs: 20 },
    });
    // Calm: the same kind of miss gets its offer (one search more: the likeliest rewrite counted).
    es.searchDelayMs = 300;
    es.resetCounts();
    const calm = await ask(small, '/api/v1/ppas?q=Mocuba+Geothermal+zorbcalm');
    expect(calm).to.deep.include({ status: 200, total: 0 });
    expect(calm.didYouMean).to.deep.include({ q: 'Mocuba Geothermal' });
    expect(es.searchesSent).to.equal(2);

    // Past capacity: twelve at once, two slots, a target no queued search can meet.
    es.resetCounts();
    const answers = await Promise.all(misses('p', 12).map((path) => ask(small, path)));
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(admitted).to.have.length(2);
    for (const answer of admitted) expect(answer).to.deep.include({ total: 0, didYouMean: null });
    // Every refusal is admission's for the searches themselves, made before any work (none for a suggestion).
    expect(refused).to.have.length(10);
    for (const answer of refused)
      expect(answer).to.deep.include({ status: 503, type: OVERLOADED_PROBLEM_TYPE });
    expect(es.searchesSent, 'the two admitted searches, no rewrite').to.equal(2);
    expect(small.admission.state()).to.include({ declined: 2, refused: 10 });
    const metrics = await small.metrics!.registry.getSingleMetricAsString(
      'ppa_admission_optional_declined_total',
    );
    expect(metrics).to.match(/^ppa_admission_optional_declined_total 2$/m);
  });

  it('a suggestion whose searches cannot end within the deadline: the answer is 200 with null, never a 503, and is not kept', async () => {
    const es = await proxy();
    const deadline = await app({
      esNodes: [es.url],
      requestTimeoutMs: 2000,
      configOverrides: { responseCacheBytes: 8 * 1024 * 1024 },
    });
    // Each search is held 1.2 s: the empty answer's own search ends in time (0.8 s to spare for a loaded machine),
    // its suggestion's could not.
    es.searchDelayMs = 1200;
    for (const path of [
      '/api/v1/ppas?q=Mocuba+Geothermal+zorbslow',
      '/api/v1/ppas/suggest?q=Mocuba+Geothermal+zorbslow',
    ]) {
      const late = await ask(deadline, path);
      expect(late.status, path).to.equal(200);
      expect(late.didYouMean, path).to.equal(null);
      // Calm again: the same request is computed anew (the answer without its suggestion was not kept).
      es.searchDelayMs = 0;
      const again = await ask(deadline, path);
      expect(again.didYouMean, path).to.deep.include({ q: 'Mocuba Geothermal' });
      es.searchDelayMs = 1200;
    }
  });
});
