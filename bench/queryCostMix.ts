// `npm run bench -- query-cost-mix`: what the forgiving `q` costs Elasticsearch against a plain one on the scale
// bench's corpus and mix (issue 47), where `query-cost` uses the relevance suite's. The no-repeat mix of
// `npm run bench -- scale` (100k generated records by default) is drawn, and its searches with a `q` (lists, sorted
// lists, statistics) are grouped by request kind and by the number of words typed, a reference code apart. Each
// group is sent to Elasticsearch on the API's own index, with the API's very bodies and with their plain forms
// (the text clause swapped for one fuzzy `multi_match`, the first letter as typed: bench/perf/reference.ts, as
// `scale --raw-q plain` sends them), evenly paced, in rounds that alternate which side goes first. Filtered lists
// without `q`, the same body on both sides, give the run's spread.
//
//   npm run bench -- query-cost-mix              # ~8 min; prints only (figures go to docs/performance.md)
import { positiveInteger } from '../indexer/optionParsers.js';
import { parseListQuery } from '../src/params/list.js';
import { parseStatisticsQuery } from '../src/params/statistics.js';
import { withFixture } from './fixture.js';
import { defineSuite, type SharedOptions } from './suite.js';
import { localEsPid } from './perf/cpuSplit.js';
import { localNodeInfo, setRequestCache } from './perf/rawElasticsearch.js';
import { rawTarget } from './perf/load.js';
import { machineInfo } from './perf/machine.js';
import { buildDistinctMix, type MixRequest } from './perf/requestMix.js';
import { paceOf, pacedCostByKind, withPaceOptions, type CostKind } from './perf/pacedCost.js';
import { referenceRequest } from './perf/reference.js';

interface QueryCostMixOptions extends SharedOptions {
  mixSeed: number;
  size: number;
  rounds: number;
  seconds: number;
  rate: number;
  connections: number;
}

export default defineSuite<QueryCostMixOptions>({
  name: 'query-cost-mix',
  module: import.meta.url,
  summary:
    "the forgiving q's cost on the scale bench's corpus and no-repeat mix, by request kind and words typed",
  count: 100_000,
  seed: 20261122,
  options: (command) =>
    withPaceOptions(command)
      .option('--mix-seed <n>', 'seed of the requests', positiveInteger, 4242)
      .option('--size <n>', 'distinct requests drawn (about 40 % of them have a q)', positiveInteger, 6000),
  quick: { count: 300, args: ['--size', '200', '--rounds', '1', '--seconds', '1'] },
  run: queryCostMix,
});

const log = (line: string) => process.stderr.write(`query-cost-mix: ${line}\n`);
const CONTROL = 'filtered lists, no q (the same body on both sides)';
const ALL = 'every search with a q';

function textOf(request: MixRequest): string | undefined {
  const querystring = request.apiPath.split('?')[1] ?? '';
  return request.kind === 'statistics'
    ? parseStatisticsQuery(querystring).q?.text
    : request.esEndpoint === '_search'
      ? parseListQuery(querystring).q?.text
      : undefined;
}

/**
 * The group of a request: its kind and how its `q` is typed (a reference code of the records the mix was drawn
 * from, or so many words); undefined for what is not compared.
 */
function groupOf(request: MixRequest, referenceCodes: ReadonlySet<string>): string | undefined {
  const q = textOf(request)?.trim();
  if (q === undefined) return request.kind === 'list_filter' ? CONTROL : undefined;
  if (referenceCodes.has(q)) return `${request.kind}: a reference code`;
  const words = q.split(/\s+/u).length;
  return `${request.kind}: ${words >= 3 ? 'three words or more' : words === 2 ? 'two words' : 'one word'}`;
}

async function queryCostMix(options: QueryCostMixOptions): Promise<void> {
  await withFixture('query-cost-mix', async (fixture) => {
    const { alias, corpus } = await fixture.indexedCorpus({
      count: options.count,
      seed: options.seed,
      sampleSize: Math.min(20_000, Math.max(500, Math.floor(options.count / 4))),
    });
    const es = fixture.es;
    // Size-0 statistics would otherwise be answered from the shard request cache for the second side.
    await setRequestCache(es, alias, false);
    const esPid = await localEsPid((await localNodeInfo(es)).pid);
    if (esPid === undefined)
      throw new Error('query-cost-mix reads Elasticsearch CPU from /proc: it must run on this machine');

    const referenceCodes = new Set(corpus.sample.map((record) => record.reference_code));
    const groups = new Map<string, MixRequest[]>();
    for (const request of buildDistinctMix(corpus.sample, { seed: options.mixSeed, size: options.size })) {
      const group = groupOf(request, referenceCodes);
      if (group === undefined) continue;
      const members = groups.get(group) ?? [];
      members.push(request);
      groups.set(group, members);
    }
    const withQ = [...groups].filter(([group]) => group !== CONTROL).flatMap(([, requests]) => requests);
    groups.set(ALL, withQ);
    const targets = (requests: MixRequest[]) => ({
      api: rawTarget(es, alias, requests),
      plain: rawTarget(
        es,
        alias,
        requests.map((request) => referenceRequest(request, 1)),
      ),
    });
    // The control first, every search with a q last, the groups between in the order of their names.
    const place = (group: string) => (group === CONTROL ? 0 : group === ALL ? 2 : 1);
    const ordered = [...groups].sort(([a], [b]) => place(a) - place(b) || a.localeCompare(b));
    const kinds: CostKind[] = ordered.map(([kind, requests]) => ({ kind, targets: targets(requests) }));
    log(ordered.map(([group, requests]) => `${group}: ${requests.length}`).join('; '));
    const costs = await pacedCostByKind(esPid, kinds, targets(withQ), paceOf(options), log);

    const machine = machineInfo();
    const rows = ordered.map(([group, requests]) => {
      const { api, plain } = costs.get(group)!;
      return `| ${group} | ${requests.length} | ${api.toFixed(2)} | ${plain.toFixed(2)} | ${(api / plain).toFixed(2)}× |`;
    });
    const report = [
      `# What the forgiving q costs Elasticsearch against a plain one on the scale mix: ${options.count.toLocaleString('en')} generated records`,
      '',
      `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the end ${machine.loadAverage}; Node ${process.version}. ` +
        'Made by `npm run bench -- query-cost-mix`.',
      '',
      `The no-repeat mix of \`npm run bench -- scale\` (request seed ${options.mixSeed}, ${options.size} drawn), its searches with a q ` +
        `grouped; each group sent to each side at ${options.rate} a second over ${options.connections} connections, evenly paced, ` +
        `${options.seconds} s per group, side and round, ${options.rounds} rounds alternating which side goes first, after one warm-up ` +
        "pass of every search with a q on each side. api: the API's very bodies; plain: the same bodies with the text clause " +
        "swapped for one fuzzy multi_match (AUTO, prefix_length 1, operator and) over the API index's four text fields. " +
        "Both on the API's own index, Elasticsearch's request cache off. CPU: the Elasticsearch process, /proc.",
      '',
      '| group | requests | api: ES CPU ms a request | plain | api ÷ plain |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(`${report}\n`);
  });
}
