// `npm run bench -- query-cost`: what the forgiving `q` costs Elasticsearch against a plain one, by kind of query
// (issue 47). The relevance suite's corpus (names like a registry's, tools/relevance/corpus.ts) is indexed twice:
// by the real reindex into the API's mapping, and as the records are into a plain dynamic mapping (each string a
// text field with a keyword sub-field). The relevance suite's list queries, grouped by kind, are sent to each as
// a list request of the same shape (the live records, 25 a page, exact total, sorted by score then slug, the
// list's fields): to the API's index with the API's own body, to the plain index with one fuzzy `multi_match`
// (fuzziness AUTO, prefix_length 1, every word required) over the four text fields. Each kind, each side: evenly
// paced at the same rate, in rounds that alternate which side goes first; Elasticsearch's CPU read from /proc
// around each, per request.
//
//   npm run bench -- query-cost                  # 12k records, ~4 min; writes bench/results/<date>-query-cost.md
//   npm run bench -- query-cost --api-root DIR   # the text query of another checkout (a before/after)
//   npm run bench -- query-cost --parts          # also each part of the query left out, took paired
//   npm run bench -- query-cost --operators      # precise search: a phrase or an exclusion against the plain
//                                                # words it replaces, both the API's body on its own index
import type { Client } from '@elastic/elasticsearch';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { positiveInteger } from '../indexer/optionParsers.js';
import type { PpaRecord } from '../indexContract/record.js';
import { LIST_SOURCE_FIELDS } from '../indexContract/sourceFields.js';
import { buildCorpus, DEFAULT_CORPUS } from '../tools/relevance/corpus.js';
import {
  generateQueries,
  isSuggestClass,
  QUERY_CLASSES,
  type QueryClass,
  type RelevanceQuery,
} from '../tools/relevance/queries.js';
import { RECORD_TEXT_FIELDS, TEXT_FIELDS } from '../src/matching/textFields.js';
import { ALL_PARTS, buildTextQuery, type TextQueryParts } from '../src/queries/textQuery.js';
import { listRequest } from '../tools/relevance/runner.js';
import { generateOperatorQueries, type OperatorClass } from '../tools/relevance/operatorSuite.js';
import { withFixture } from './fixture.js';
import { defineSuite, type SharedOptions } from './suite.js';
import { REPO_ROOT } from './perf/apiProcess.js';
import { localEsPid } from './perf/cpuSplit.js';
import { CLIENT_CONTENT_HEADERS, esRequest, localNodeInfo, type EsTarget } from './perf/rawElasticsearch.js';
import type { LoadTarget } from './perf/load.js';
import { machineInfo } from './perf/machine.js';
import { paceOf, pacedCostByKind, withPaceOptions, type CostKind, type CostSide } from './perf/pacedCost.js';

interface QueryCostOptions extends SharedOptions {
  perClass: number;
  querySeed: number;
  rounds: number;
  seconds: number;
  rate: number;
  connections: number;
  apiRoot?: string;
  parts?: boolean;
  operators?: boolean;
  out?: string;
}

export default defineSuite<QueryCostOptions>({
  name: 'query-cost',
  module: import.meta.url,
  summary: 'what the forgiving q costs Elasticsearch against a plain fuzzy query, by kind of q',
  count: DEFAULT_CORPUS.count,
  writes: true,
  options: (command) =>
    withPaceOptions(command)
      .option('--per-class <n>', 'queries per class', positiveInteger, 40)
      .option('--query-seed <n>', 'seed of the queries', positiveInteger, 9)
      .option('--api-root <dir>', "another checkout's list body builder (a before/after)")
      .option(
        '--parts',
        "also where the API's query spends: each part left out in turn, Elasticsearch's took paired",
      )
      .option(
        '--operators',
        'instead: what a phrase or an exclusion costs against the plain words it replaces (the API on its index)',
      )
      .option('--out <file>', 'results file (default bench/results/<date>-query-cost.md)'),
  quick: { count: 300, args: ['--per-class', '3', '--rounds', '1', '--seconds', '1'] },
  run: queryCost,
});

const log = (line: string) => process.stderr.write(`query-cost: ${line}\n`);

/** The kinds of `q` the issue names, and the relevance classes each holds. */
const NAMED_KINDS: { kind: string; classes: QueryClass[] }[] = [
  { kind: 'exact name', classes: ['exact', 'capitals', 'padded', 'accents_stripped'] },
  { kind: 'word + place', classes: ['word_place'] },
  { kind: 'one typo', classes: ['typo', 'transposed_letters'] },
  { kind: 'reference code', classes: ['code_exact', 'code_lower'] },
];
const KINDS = [
  ...NAMED_KINDS,
  {
    kind: 'the hard classes',
    classes: QUERY_CLASSES.filter(
      (queryClass) =>
        !isSuggestClass(queryClass) && !NAMED_KINDS.some(({ classes }) => classes.includes(queryClass)),
    ),
  },
];

/** The plain text query: one fuzzy multi_match over four text fields, every word required, the first letter as typed. */
const plainQuery = (q: string, fields: string[]) => ({
  multi_match: {
    query: q,
    fields,
    type: 'best_fields' as const,
    operator: 'and' as const,
    fuzziness: 'AUTO',
    prefix_length: 1,
  },
});

/** The plain list request: one fuzzy multi_match, the list's shape around it. */
function plainBody(q: string): object {
  return {
    query: {
      bool: {
        must: [plainQuery(q, RECORD_TEXT_FIELDS)],
        filter: [{ term: { active: true } }],
      },
    },
    sort: [{ _score: { order: 'desc' } }, { 'slug.keyword': { order: 'asc' } }],
    size: 25,
    from: 0,
    track_total_hits: true,
    _source: [...LIST_SOURCE_FIELDS],
  };
}

/** The records as they are into a dynamic mapping (published only, as the API's index holds). */
async function indexPlain(client: Client, index: string, records: readonly PpaRecord[]): Promise<void> {
  await client.indices.create({ index, settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const published = records.filter((record) => record.published);
  for (let start = 0; start < published.length; start += 2000) {
    const operations = published
      .slice(start, start + 2000)
      .flatMap((record) => [{ index: { _index: index, _id: record.slug } }, record]);
    const response = await client.bulk({ operations, refresh: false });
    if (response.errors)
      throw new Error(`plain bulk: ${JSON.stringify(response.items.find((i) => i.index?.error))}`);
  }
  await client.indices.refresh({ index });
  await client.indices.forcemerge({ index, max_num_segments: 1 });
}

/** Elasticsearch's took for the API's query and for each part left out (and for the plain query), paired. */
async function partsCost(es: EsTarget, index: string, queries: readonly RelevanceQuery[]): Promise<string[]> {
  const took = async (body: object) => {
    const answer = await esRequest<{ took: number }>(
      es,
      'POST',
      `/${index}/_search?request_cache=false`,
      JSON.stringify(body),
    );
    return answer.took;
  };
  const whole = (q: string) => ({ ...listRequest(q), size: 25 });
  const variants: [string, (q: string) => object][] = [
    [
      'everything but a plain fuzzy multi_match',
      (q) => ({ ...listRequest(q, () => plainQuery(q, TEXT_FIELDS)), size: 25 }),
    ],
    ...(Object.keys(ALL_PARTS) as (keyof TextQueryParts)[]).map((part): [string, (q: string) => object] => [
      part,
      (q) => ({
        ...listRequest(q, (text) => buildTextQuery(text, { ...ALL_PARTS, [part]: false })),
        size: 25,
      }),
    ]),
  ];
  // 15 queries a class: enough to pair, and the thirteen variants in a few minutes.
  const perClass = new Map<string, number>();
  const sample = queries.filter((query) => {
    const seen = perClass.get(query.queryClass) ?? 0;
    perClass.set(query.queryClass, seen + 1);
    return seen < 15;
  });
  const rows: string[] = [];
  for (const [name, variant] of variants) {
    let all = 0;
    let without = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (const [index, query] of sample.entries()) {
        if ((index + pass) % 2 === 0) {
          all += await took(whole(query.q));
          without += await took(variant(query.q));
        } else {
          without += await took(variant(query.q));
          all += await took(whole(query.q));
        }
      }
    }
    rows.push(`| ${name} | ${(without / all).toFixed(3)} |`);
    log(`${name}: ${(without / all).toFixed(3)} of the whole query's took`);
  }
  return rows;
}

/** Searches of `index` straight to Elasticsearch, one a q, each with the body `body` makes of it. */
function searchTarget(
  es: EsTarget,
  index: string,
  qs: readonly string[],
  body: (q: string) => object,
): LoadTarget {
  return {
    side: 'raw',
    url: es.url,
    requests: qs.map((q) => ({
      kind: 'list_q',
      method: 'POST',
      path: `/${index}/_search`,
      headers: { ...es.headers, ...CLIENT_CONTENT_HEADERS },
      body: JSON.stringify(body(q)),
    })),
  };
}

async function queryCost(options: QueryCostOptions): Promise<void> {
  await withFixture('query-cost', async (fixture) => {
    const { alias, client } = fixture.index();
    const plainIndex = `${alias}-plain`;
    log(`indexing the relevance corpus (${options.count} records) twice…`);
    const { records } = await buildCorpus(client, alias, { ...DEFAULT_CORPUS, count: options.count });
    const ownIndex = Object.keys(await client.indices.getAlias({ name: alias }))[0]!;
    await client.indices.forcemerge({ index: ownIndex, max_num_segments: 1 });
    await indexPlain(client, plainIndex, records);

    // The API's list body: this checkout's builder, or another's (--api-root).
    const runner = (await import(
      pathToFileURL(join(options.apiRoot ?? REPO_ROOT, 'tools/relevance/runner.ts')).href
    )) as { listRequest: (q: string) => object & { size?: number } };
    const apiBody = (q: string) => ({ ...runner.listRequest(q), size: 25 });

    if (options.operators) {
      await operatorCost(options, fixture.es, ownIndex, records, apiBody);
      return;
    }
    const queries = generateQueries(records, { seed: options.querySeed, perClass: options.perClass }).filter(
      (query) => !isSuggestClass(query.queryClass),
    );
    const byKind = KINDS.map(({ kind, classes }) => ({
      kind,
      queries: queries.filter((query) => classes.includes(query.queryClass)),
    })).filter(({ queries: list }) => list.length > 0);
    byKind.push({ kind: 'all list classes', queries });

    const es = fixture.es;
    const esPid = await localEsPid((await localNodeInfo(es)).pid);
    if (esPid === undefined)
      throw new Error('query-cost reads Elasticsearch CPU from /proc: it must run on this machine');
    const target = (
      index: string,
      list: readonly RelevanceQuery[],
      body: (q: string) => object,
    ): LoadTarget =>
      searchTarget(
        es,
        index,
        list.map((query) => query.q),
        body,
      );
    const sides: Record<CostSide, (list: readonly RelevanceQuery[]) => LoadTarget> = {
      api: (list) => target(ownIndex, list, apiBody),
      plain: (list) => target(plainIndex, list, plainBody),
    };
    const kinds: CostKind[] = byKind.map(({ kind, queries: list }) => ({
      kind,
      targets: { api: sides.api(list), plain: sides.plain(list) },
    }));
    const costs = await pacedCostByKind(
      esPid,
      kinds,
      { api: sides.api(queries), plain: sides.plain(queries) },
      paceOf(options),
      log,
    );

    const partRows = options.parts ? await partsCost(es, ownIndex, queries) : [];

    const machine = machineInfo();
    const rows = byKind.map(({ kind, queries: list }) => {
      const { api, plain } = costs.get(kind)!;
      const classes = [...new Set(list.map((query) => query.queryClass))].join(', ');
      return `| ${kind} | ${list.length} | ${api.toFixed(2)} | ${plain.toFixed(2)} | ${(api / plain).toFixed(2)}× | ${classes} |`;
    });
    const report = [
      `# What the forgiving q costs Elasticsearch against a plain one, by kind: ${options.count.toLocaleString('en')} records of the relevance corpus`,
      '',
      `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the start ${machine.loadAverage}; Node ${process.version}.` +
        `${options.apiRoot ? ` The list body of ${options.apiRoot}.` : ''} Made by \`npm run bench -- query-cost\`.`,
      '',
      `The relevance suite's list queries (query seed ${options.querySeed}, ${options.perClass} a class), grouped by kind; each kind sent ` +
        `to each side at ${options.rate} a second over ${options.connections} connections, evenly paced, ${options.seconds} s per kind, side and ` +
        `round, ${options.rounds} rounds alternating which side goes first, after one warm-up pass of every query on each side. ` +
        "api: the API's own list body on its index (25 a page). plain: one fuzzy multi_match (AUTO, prefix_length 1, " +
        `operator and) over ${RECORD_TEXT_FIELDS.join(', ')} of a plain dynamic mapping, the same ` +
        'page, sort, total and fields. Both indexes force-merged to one segment. CPU: the Elasticsearch process, /proc.',
      '',
      '| kind | queries | api: ES CPU ms a request | plain | api ÷ plain | classes |',
      '|---|---:|---:|---:|---:|---|',
      ...rows,
      '',
      ...(partRows.length === 0
        ? []
        : [
            "## Where the API's query spends (`--parts`)",
            '',
            `15 list queries a class, each twice, back to back (which first alternates), on the API's index with the request cache off: the API's ` +
              'query, and the same query without one part (TextQueryParts, src/queries/textQuery.ts), or the plain fuzzy multi_match over the ' +
              "same four fields of the API's index; Elasticsearch's `took` summed. Under 1: the part costs that share.",
            '',
            '| left out | took ÷ the whole query |',
            '|---|---:|',
            ...partRows,
            '',
          ]),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) {
      const file =
        options.out ??
        join(REPO_ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-query-cost.md`);
      await writeFile(file, report);
      log(`wrote ${file}`);
    }
  });
}

/**
 * Precise search's cost (issue 59): each phrase ("w1 w2") and each exclusion (a -b) of the operator classes
 * (tools/relevance/operatorSuite.ts) against the plain words it replaces (w1 w2; a b), both as the API's own list
 * body on its own index, paced and alternating like the main table. Under 1: the operator costs less.
 */
async function operatorCost(
  options: QueryCostOptions,
  es: EsTarget,
  index: string,
  records: readonly PpaRecord[],
  apiBody: (q: string) => object,
): Promise<void> {
  const esPid = await localEsPid((await localNodeInfo(es)).pid);
  if (esPid === undefined)
    throw new Error('query-cost reads Elasticsearch CPU from /proc: it must run on this machine');
  const operators = generateOperatorQueries(records, { seed: options.querySeed, perClass: options.perClass });
  const pairs = (operatorClass: OperatorClass, plain: (q: string) => string) =>
    operators
      .filter((query) => query.operatorClass === operatorClass)
      .map((query) => ({ operator: query.q, plain: plain(query.q) }));
  const groups = [
    { kind: 'a phrase against its words', pairs: pairs('phrase', (q) => q.replaceAll('"', '')) },
    { kind: 'a -b against a b', pairs: pairs('exclusion', (q) => q.replace(' -', ' ')) },
  ];
  const target = (qs: readonly string[]): LoadTarget => searchTarget(es, index, qs, apiBody);
  const kinds: CostKind[] = groups.map(({ kind, pairs: list }) => ({
    kind,
    targets: {
      api: target(list.map((pair) => pair.operator)),
      plain: target(list.map((pair) => pair.plain)),
    },
  }));
  const all = groups.flatMap((group) => group.pairs);
  const costs = await pacedCostByKind(
    esPid,
    kinds,
    { api: target(all.map((pair) => pair.operator)), plain: target(all.map((pair) => pair.plain)) },
    paceOf(options),
    log,
  );
  const machine = machineInfo();
  const report = [
    `# What precise search costs Elasticsearch against the plain words it replaces: ${options.count.toLocaleString('en')} records of the relevance corpus`,
    '',
    `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the start ${machine.loadAverage}; Node ${process.version}. Made by \`npm run bench -- query-cost --operators\`.`,
    '',
    `The operator classes' phrases and exclusions (tools/relevance/operatorSuite.ts, seed ${options.querySeed}, ${options.perClass} a class), each ` +
      'sent as the API\'s own list body on its index, against the same body for the plain words it replaces ("w1 w2" against w1 w2; ' +
      `a -b against a b); each kind at ${options.rate} a second over ${options.connections} connections, evenly paced, ${options.seconds} s per kind, ` +
      `side and round, ${options.rounds} rounds alternating which side goes first. CPU: the Elasticsearch process, /proc.`,
    '',
    '| kind | queries | operator: ES CPU ms a request | plain words | operator ÷ plain |',
    '|---|---:|---:|---:|---:|',
    ...groups.map(({ kind, pairs: list }) => {
      const { api, plain } = costs.get(kind)!;
      return `| ${kind} | ${list.length} | ${api.toFixed(2)} | ${plain.toFixed(2)} | ${(api / plain).toFixed(2)}× |`;
    }),
    '',
  ].join('\n');
  process.stdout.write(`${report}\n`);
  if (options.write) {
    const file =
      options.out ??
      join(REPO_ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-query-cost-operators.md`);
    await writeFile(file, report);
    log(`wrote ${file}`);
  }
}
