// `npm run bench -- <suite> [options]`: the one entry point of the benchmarks (bench/README.md).
//   mix        the request mix against the API and raw Elasticsearch, and the indexer against raw _bulk (default)
//   scale      public traffic: no-repeat and Zipf mixes, statistics (--trickle S: changes in place meanwhile)
//   floor      the API against the floor under it (--replay: Elasticsearch's answers recorded and replayed)
//   postgres   the PostgreSQL source: reindex and sync
//   overload   past capacity: open-loop arrivals at 1×, 2×, 5× and 10× capacity, one and two instances
//   relevance  search quality per query class
//   highlights what highlight=true costs: the presenter alone, and the API without and with it
//   query-cost what the forgiving q costs Elasticsearch against a plain fuzzy query, by kind of q
//   query-cost-mix  the same on the scale bench's corpus and no-repeat mix, by kind of request and words typed
// Each suite's own options follow its name (`npm run bench -- scale --only zipf --help`).
import { fileURLToPath } from 'node:url';

const SUITES = {
  mix: './run.ts',
  scale: './scale.ts',
  floor: './floor.ts',
  postgres: './postgres.ts',
  overload: './overload.ts',
  relevance: './relevance.ts',
  highlights: './highlights.ts',
  'query-cost': './queryCost.ts',
  'query-cost-mix': './queryCostMix.ts',
} as const;

const [first, ...rest] = process.argv.slice(2);
const named = first !== undefined && !first.startsWith('-');
const suite = named ? first : 'mix';
if (!(suite in SUITES)) {
  process.stderr.write(`bench: unknown suite "${suite}": one of ${Object.keys(SUITES).join(', ')}\n`);
  process.exit(2);
}
const file = fileURLToPath(new URL(SUITES[suite as keyof typeof SUITES], import.meta.url));
// The suite parses process.argv as if it had been started itself.
process.argv = [process.argv[0]!, file, ...(named ? rest : process.argv.slice(2))];
await import(file);
