// GET /api/v1/ppas/export over the real app and Elasticsearch: CSV and NDJSON equal the list, the formula guard,
// the per-client and per-instance limits, one rate-limit point, and a body cut (never a clean short end) when
// Elasticsearch goes away mid-stream.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import { ITEM_FIELDS } from '../../src/params/itemFields.js';
import { csvCell } from '../../src/present/csv.js';
import { buildTestApp } from '../support/app.js';
import { ppasApi, type ListBody } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { indexSample } from '../support/sampleIndex.js';
import { listed, oracle, sorted } from '../support/sampleOracle.js';
import { ES_URL, deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { startTcpProxy } from '../../tools/services/tcpProxy.js';

/** Every list item of a query, through cursor paging (the list is the reference an export must equal). */
async function listItems(base: string, query: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let url: string | null = `${base}/api/v1/ppas?${query}&per_page=100&cursor=*`;
  while (url) {
    const page = (await (await fetch(url)).json()) as ListBody;
    items.push(...page.data);
    url = page.links.next;
  }
  return items;
}

/** Starts a GET and resolves with the response as soon as its head arrives (the body is left unread). */
function startGet(url: string, localAddress = '127.0.0.1'): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

describe('GET /api/v1/ppas/export on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-export');
  const { problem } = ppasApi(() => app().url);

  it('CSV: RFC 4180 with a header row, the list’s records in its order, each cell as the list has it', async () => {
    const response = await fetch(`${app().url}/api/v1/ppas/export?technology=solar_pv,wind&sort=name_asc`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).to.match(
      /^attachment; filename="ppas-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const text = await response.text();
    expect(text.endsWith('\r\n')).to.equal(true);
    const rows = parse(text, { relax_column_count: false }) as string[][];
    const [header, ...body] = rows;
    expect(header).to.deep.equal([...ITEM_FIELDS, 'url']);
    const expected = await listItems(app().url, 'technology=solar_pv,wind&sort=name_asc');
    expect(body.map((row) => row[0])).to.deep.equal(
      sorted(oracle({ technology: ['solar_pv', 'wind'] }), 'name_asc'),
    );
    expect(body).to.deep.equal(expected.map((item) => (header ?? []).map((column) => csvCell(item[column]))));
  });

  it('NDJSON: one list item per line, and fields chooses the columns', async () => {
    const response = await fetch(`${app().url}/api/v1/ppas/export?format=ndjson&q=solar&fields=capacity_mw`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/x-ndjson');
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines.pop()).to.equal(''); // ends with a newline
    const expected = await listItems(app().url, 'q=solar&fields=capacity_mw');
    expect(lines.map((line) => JSON.parse(line) as unknown)).to.deep.equal(expected);
    expect(Object.keys(expected[0] ?? {}).sort()).to.deep.equal(['capacity_mw', 'slug', 'url']);
  });

  it('takes the list’s filters but no paging, cursor or facets; an unknown format is 400', async () => {
    for (const [query, name] of [
      ['page=2', 'page'],
      ['per_page=10', 'per_page'],
      ['cursor=*', 'cursor'],
      ['facets=technology', 'facets'],
      ['format=xlsx', 'format'],
      ['fields=offtaker', 'fields'],
    ] as const) {
      const body = await problem(`/api/v1/ppas/export?${query}`);
      expect(
        (body.invalid_params ?? []).map((p) => p.name),
        query,
      ).to.deep.equal([name]);
    }
  });
});

describe('GET /api/v1/ppas/export: hostile cells, limits and failures', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const smallAlias = uniqueName('api-export-cells');
  const bigAlias = uniqueName('api-export-big');
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-'));
    // Cells a spreadsheet would run as formulas, and commas, quotes and line breaks that must survive.
    const hostile = listed.slice(0, 4).map((record, i) => ({
      ...record,
      project_name: ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3, "quoted"', '@SUM(A1)'][i] ?? '',
      developer: ['Line one\nline two', 'Comma, Inc.', 'Quote "Q" Ltd', '\tTabbed'][i] ?? '',
    }));
    await writeFile(
      join(dir, 'hostile.ndjson'),
      hostile.map((record) => JSON.stringify(record)).join('\n') + '\n',
    );
    await indexSample(client, smallAlias, join(dir, 'hostile.ndjson'));
    const output = createWriteStream(join(dir, 'big.ndjson'));
    await writeNdjson(generateRecords({ seed: 23, count: 20_000 }), output);
    await new Promise((resolve) => output.end(resolve));
    await indexSample(client, bigAlias, join(dir, 'big.ndjson'));
  });

  after(async () => {
    await deleteIndices(client, smallAlias);
    await deleteIndices(client, bigAlias);
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('guards formula cells with a leading quote; commas, quotes and line breaks survive the round trip', async () => {
    const app = await buildTestApp({ alias: smallAlias, configOverrides: { logLevel: 'warn' } });
    try {
      const text = await (
        await fetch(`${app.url}/api/v1/ppas/export?fields=project_name,developer&sort=name_asc`)
      ).text();
      const rows = (parse(text) as string[][]).slice(1);
      const byName = Object.fromEntries(rows.map((row) => [row[1], row[2]]));
      expect(byName).to.deep.equal({
        "'+1+2": 'Comma, Inc.',
        '\'-3, "quoted"': 'Quote "Q" Ltd',
        '\'=HYPERLINK("http://evil.example","x")': 'Line one\nline two',
        "'@SUM(A1)": "'\tTabbed",
      });
    } finally {
      await app.close();
    }
  });

  it('one export per client (429 with Retry-After), EXPORT_CONCURRENCY per instance, one rate-limit point each', async () => {
    const app = await buildTestApp({
      alias: bigAlias,
      configOverrides: { logLevel: 'warn', exportConcurrency: 2, rateLimitPoints: 50 },
    });
    try {
      const url = `${app.url}/api/v1/ppas/export?format=ndjson`;
      // Not read: with backpressure the export waits for this client, holding its slot.
      const first = await startGet(url, '127.0.0.2');
      expect(first.statusCode).to.equal(200);
      expect(Number(first.headers['x-ratelimit-remaining'])).to.equal(49);
      const again = await startGet(url, '127.0.0.2');
      expect(again.statusCode).to.equal(429);
      expect(Number(again.headers['retry-after'])).to.be.at.least(1);
      again.resume();
      const other = await startGet(url, '127.0.0.3');
      expect(other.statusCode, 'another client: the second slot').to.equal(200);
      const third = await startGet(url, '127.0.0.4');
      expect(third.statusCode, 'a third client: the instance is full').to.equal(429);
      third.resume();
      // Reading the first one to its end frees its slot; the client may then export again.
      let bytes = 0;
      for await (const chunk of first) bytes += (chunk as Buffer).length;
      expect(bytes).to.be.greaterThan(1_000_000);
      other.destroy();
      const later = await startGet(url, '127.0.0.2');
      expect(later.statusCode).to.equal(200);
      later.destroy();
    } finally {
      await app.close();
    }
  });

  it('Elasticsearch gone mid-export: the client sees a cut body, not a clean end; the API stays up', async () => {
    const target = new URL(ES_URL.split(',')[0] ?? '');
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const app = await buildTestApp({
      alias: bigAlias,
      esNodes: [proxy.url],
      configOverrides: { logLevel: 'warn' },
    });
    try {
      const response = await startGet(`${app.url}/api/v1/ppas/export?format=ndjson`);
      expect(response.statusCode).to.equal(200);
      const first = await new Promise<Buffer>((resolve) => response.once('data', resolve));
      expect(first.length).to.be.greaterThan(0);
      response.pause();
      await proxy.close(); // Elasticsearch disappears while the client is still reading
      const outcome = await new Promise<string>((resolve) => {
        response.on('aborted', () => resolve('aborted'));
        response.on('error', () => resolve('error'));
        response.on('end', () => resolve(response.complete ? 'complete' : 'incomplete'));
        response.resume();
      });
      expect(outcome).to.be.oneOf(['aborted', 'error', 'incomplete']);
      await proxy.open();
      expect((await fetch(`${app.url}/health/live`)).status).to.equal(200);
      expect(app.logs.some((line) => line.msg === 'export failed mid-stream: response cut')).to.equal(true);
    } finally {
      await app.close();
      await proxy.close();
    }
  });
});
