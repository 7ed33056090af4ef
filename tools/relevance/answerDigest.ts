// What the matching model answers over the relevance suite, as three SHA-256 digests, so that a change meant to
// leave the answers as they were (a refactoring of src/matching/, indexContract/text/ or the query builders) can
// prove it: run it before the change and after, and compare.
//   requests:   every Elasticsearch request body the list and the suggest build for each query of the suite (the
//               ranked classes and the operator classes), both endpoints for every query;
//   highlights: the highlights of every item the API gives for those queries with highlight=true (the list's page of
//               HITS_READ, the suggest's SUGGESTIONS_READ), through the real presenters, against the corpus;
//   documents:  every document the real reindex writes for the relevance corpus, read back by slug;
//   offers:     for each of those queries whose list or suggest answer is empty, the "did you mean" offered (issue
//               69; the searches it asks are not in `requests`, which holds the bodies every answer sends).
//
//   node --import tsx tools/relevance/answerDigest.ts [--dump <dir>]
//
// --dump writes the lines each digest is taken over (requests.txt, highlights.txt, documents.ndjson), so that two
// runs that differ can be compared line by line. ES_URL picks the cluster (default http://127.0.0.1:9200); the
// corpus index is built under a unique alias and dropped at the end.
import { Client, type estypes } from '@elastic/elasticsearch';
import { createHash, type Hash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { IndexDocument } from '../../indexContract/document.js';
import type { ListSource } from '../../indexContract/sourceFields.js';
import { createSearchGateway, type SearchGateway } from '../../src/gateway/gateway.js';
import { parseListQuery } from '../../src/params/list.js';
import { parseSuggestQuery } from '../../src/params/suggest.js';
import { highlighterFor, presentList } from '../../src/present/list.js';
import { presentSuggestions, type SuggestSource } from '../../src/present/suggest.js';
import { buildListSearch } from '../../src/queries/listSearch.js';
import { buildSuggestSearch } from '../../src/queries/suggestSearch.js';
import { listDidYouMean, suggestDidYouMean } from '../../src/queries/didYouMean.js';
import { createLiveLookups } from '../../src/liveState/lookups.js';
import { readVocabulary } from '../../src/liveState/vocabularyWatcher.js';
import type { Vocabulary } from '../../src/matching/vocabulary.js';
import { buildCorpus, DEFAULT_CORPUS, dropCorpus, relevanceAlias } from './corpus.js';
import { DEFAULT_SUITE } from './measure.js';
import { generateOperatorQueries, OPERATOR_QUERIES_PER_CLASS } from './operatorSuite.js';
import { generateQueries } from './queries.js';
import { HITS_READ, SUGGESTIONS_READ } from './runner.js';

/** Where the presented items point (their url): the same in every run. */
const BASE = 'http://digest.invalid';

/** One digest and the lines it is taken over (kept only for --dump). */
class Digest {
  private readonly hash: Hash = createHash('sha256');
  readonly lines: string[] = [];
  count = 0;
  constructor(private readonly keep: boolean) {}

  add(line: string): void {
    this.hash.update(line).update('\n');
    this.count++;
    if (this.keep) this.lines.push(line);
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/** Every q of the suite, in the suite's order, each once: the ranked classes, then the operator classes. */
function suiteQueries(records: Parameters<typeof generateQueries>[0]): string[] {
  const ranked = generateQueries(records, DEFAULT_SUITE).map((query) => query.q);
  const operators = generateOperatorQueries(records, {
    seed: DEFAULT_SUITE.seed,
    perClass: OPERATOR_QUERIES_PER_CLASS,
  }).map((query) => query.q);
  return [...new Set([...ranked, ...operators])];
}

const listQueryOf = (q: string) =>
  parseListQuery(`q=${encodeURIComponent(q)}&per_page=${HITS_READ}&highlight=true`);
const suggestQueryOf = (q: string) =>
  parseSuggestQuery(`q=${encodeURIComponent(q)}&limit=${SUGGESTIONS_READ}&highlight=true`);

interface Answers {
  requests: string[];
  highlights: string[];
  offers: string[];
}

/**
 * The two bodies of one q (a q an endpoint refuses is written as its refusal), their items' highlights, and what an
 * empty answer offers.
 */
async function answersOf(search: SearchGateway, q: string, vocabulary: Vocabulary): Promise<Answers> {
  const requests: string[] = [];
  const highlights: string[] = [];
  const offers: string[] = [];
  const key = JSON.stringify(q);
  try {
    const query = listQueryOf(q);
    const request = buildListSearch(query);
    requests.push(`list ${key} ${JSON.stringify(request)}`);
    const response = await search.search<ListSource>(request);
    const highlight = highlighterFor(query);
    const { body } = presentList({ response }, { query, querystring: '', base: BASE, highlight });
    for (const item of body.data)
      highlights.push(`list ${key} ${item.slug} ${JSON.stringify(item.highlights)}`);
    if (body.meta.total === 0 && query.q !== undefined) {
      const offer = await listDidYouMean(search, { ...query, q: query.q }, vocabulary);
      offers.push(`list ${key} ${JSON.stringify(offer ?? null)}`);
    }
  } catch (error) {
    requests.push(`list ${key} refused: ${(error as Error).message}`);
  }
  try {
    const query = suggestQueryOf(q);
    const request = buildSuggestSearch(query);
    requests.push(`suggest ${key} ${JSON.stringify(request)}`);
    const response = await search.search<SuggestSource>(request);
    const { data } = presentSuggestions(response, BASE, query);
    for (const item of data)
      highlights.push(`suggest ${key} ${item.slug} ${JSON.stringify(item.highlights)}`);
    if (data.length === 0) {
      const offer = await suggestDidYouMean(search, query, vocabulary);
      offers.push(`suggest ${key} ${JSON.stringify(offer ?? null)}`);
    }
  } catch (error) {
    requests.push(`suggest ${key} refused: ${(error as Error).message}`);
  }
  return { requests, highlights, offers };
}

/** The indexed documents, by slug, as the index returns their sources. */
async function documentLines(client: Client, alias: string, digest: Digest): Promise<void> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<IndexDocument>({
      index: alias,
      size: 1000,
      sort: [{ slug: 'asc' }],
      query: { match_all: {} },
      ...(after ? { search_after: after } : {}),
    });
    const hits = page.hits.hits;
    if (hits.length === 0) return;
    for (const hit of hits) digest.add(JSON.stringify(hit._source));
    after = hits.at(-1)!.sort;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dump: { type: 'string' } } });
  const keep = values.dump !== undefined;
  const client = new Client({ node: process.env.ES_URL ?? 'http://127.0.0.1:9200', requestTimeout: 120_000 });
  const alias = relevanceAlias();
  const digests = {
    requests: new Digest(keep),
    highlights: new Digest(keep),
    documents: new Digest(keep),
    offers: new Digest(keep),
  };
  try {
    const corpus = await buildCorpus(client, alias, DEFAULT_CORPUS);
    const queries = suiteQueries(corpus.records);
    const search = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
    const lookups = createLiveLookups({ client, alias, requestTimeoutMs: 30_000 });
    const vocabulary = await readVocabulary((after) => lookups.vocabularyPage(after));
    // A little concurrency (the machine is shared), the lines kept in the queries' order.
    const answers: Answers[] = new Array(queries.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queries.length) {
        const index = next++;
        answers[index] = await answersOf(search, queries[index]!, vocabulary);
      }
    };
    await Promise.all(Array.from({ length: 3 }, worker));
    for (const answer of answers) {
      for (const line of answer.requests) digests.requests.add(line);
      for (const line of answer.highlights) digests.highlights.add(line);
      for (const line of answer.offers) digests.offers.add(line);
    }
    await documentLines(client, alias, digests.documents);
    console.log(`queries: ${queries.length}`);
    for (const [name, digest] of Object.entries(digests)) {
      console.log(`${name}: ${digest.hex()} (${digest.count} lines)`);
    }
    if (values.dump !== undefined) {
      await mkdir(values.dump, { recursive: true });
      await writeFile(join(values.dump, 'requests.txt'), `${digests.requests.lines.join('\n')}\n`);
      await writeFile(join(values.dump, 'highlights.txt'), `${digests.highlights.lines.join('\n')}\n`);
      await writeFile(join(values.dump, 'documents.ndjson'), `${digests.documents.lines.join('\n')}\n`);
      await writeFile(join(values.dump, 'offers.txt'), `${digests.offers.lines.join('\n')}\n`);
    }
  } finally {
    await dropCorpus(client, alias);
    await client.close();
  }
}

await main();
