// A rewrite's count (did you mean, issue 72) is built from what a request selects, without the bonuses that only
// rank: it must find exactly what the request itself finds, for every shape of `q`. Over the sample, against a real
// Elasticsearch: the list's own search and its count body, suggest's search and its count body, totals equal.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { SearchRequestBody } from '../../src/gateway/gateway.js';
import { parseListQuery } from '../../src/params/list.js';
import { parseSuggestQuery } from '../../src/params/suggest.js';
import { buildListCountSearch, buildListSearches } from '../../src/queries/listSearch.js';
import { buildSuggestCountSearch, buildSuggestSearch } from '../../src/queries/suggestSearch.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const records = readFileSync(SAMPLE_PATH, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord)
  .filter((record) => record.published && record.active);

/** Every shape of q over a record: whole name, its start, a typo, a word and a place, and the operators. */
function shapesOf(record: PpaRecord): string[] {
  const words = record.project_name.split(' ');
  const first = words[0]!;
  const typo = first.length >= 5 ? `${first.slice(0, 2)}${first[3]}${first[2]}${first.slice(4)}` : first;
  return [
    record.project_name,
    `${words.slice(0, 2).join(' ')} ${(words[2] ?? '').slice(0, 3)}`.trim(),
    [typo, ...words.slice(1)].join(' '),
    `${first} ${record.location.split(/[\s,]+/)[0] ?? ''}`.trim(),
    `"${words.slice(0, 2).join(' ')}" -solar`,
    `${first} OR wind`,
    `name:${first} ${record.technology}`,
    record.reference_code,
  ];
}

describe('queries: a count selects exactly what its request finds (issue 72)', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('count-selection');
  const total = async (body: SearchRequestBody) => {
    const response = await client.search({ ...body, index: alias, track_total_hits: true, size: 0 });
    const found = response.hits.total;
    return typeof found === 'number' ? found : (found?.value ?? 0);
  };

  before(async () => {
    await indexSample(client, alias);
  });
  after(async () => {
    await deleteIndices(client, alias);
    await client.close();
  });

  it('the list: the count body of every shape of q, with and without filters, totals what the list finds', async () => {
    const compared: string[] = [];
    for (const record of records.filter((_, index) => index % 12 === 0)) {
      for (const q of shapesOf(record)) {
        for (const filters of ['', `&technology=${record.technology}`]) {
          const query = parseListQuery(`q=${encodeURIComponent(q)}${filters}`);
          const listed = await total(buildListSearches(query)[0]!);
          expect(await total(buildListCountSearch(query)), `${q}${filters}`).to.equal(listed);
          compared.push(q);
        }
      }
    }
    expect(compared.length).to.be.at.least(200);
  });

  it('suggest: the count body of typed text totals what the suggestions are drawn from', async () => {
    let compared = 0;
    for (const record of records.filter((_, index) => index % 6 === 0)) {
      const words = record.project_name.split(' ');
      for (const typed of [
        words[0]!.slice(0, 3),
        `${words[0]} ${(words[1] ?? '').slice(0, 2)}`,
        record.project_name,
      ]) {
        const query = parseSuggestQuery(`q=${encodeURIComponent(typed)}&limit=10`);
        expect(await total(buildSuggestCountSearch(query)), typed).to.equal(
          await total(buildSuggestSearch(query)),
        );
        compared++;
      }
    }
    expect(compared).to.be.at.least(100);
  });
});
