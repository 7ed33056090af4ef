// The API over an index built by an older release: it serves what the index holds and says so (readiness member
// `index`: reindex_recommended naming the fields it lacks, the metric ppa_reindex_recommended, one warn line at
// start); over an index built for a newer API than itself it is not ready. The older index is made here as an older
// release's indexer would have left it: the sample indexed, then copied into a mapping without this release's
// newer fields and a _meta without the contract's version (indexContract/contract.ts).
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { INDEX_CONTRACT_VERSION } from '../../indexContract/contract.js';
import { indexNameFor } from '../../indexContract/indexName.js';
import { readIndexDefinition } from '../../indexContract/mapping.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, ES_URL, freePort, testEsClient, uniqueName } from '../support/services.js';

/** Fields an index from before them lacks: technology and country words, first-letter typos. */
const NEWER_FIELDS = ['country_names', 'name_without_first_letter', 'technology_words'];

interface Readiness {
  status?: string;
  index: { status: string; contract_version: number; release: string | null; missing_fields: string[] };
}

describe('api index contract: an older index served and said so, a newer incompatible one refused', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-contract');
  const older = indexNameFor(alias, new Date(Date.UTC(2026, 0, 1)));
  let child: ChildProcess | undefined;
  const output: string[] = [];
  let api = '';
  let metricsUrl = '';

  before(async () => {
    const built = (await indexSample(client, alias)).index;
    if (!built) throw new Error('the sample was not indexed');
    const definition = readIndexDefinition();
    for (const field of NEWER_FIELDS) delete definition.mappings.properties![field];
    await client.indices.create({
      index: older,
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { ...definition.mappings, _meta: { built_at: '2026-01-01T00:00:00Z', records: 0 } },
    });
    // The test distribution has no _reindex: the documents are copied by hand, without the newer fields.
    const { hits } = await client.search<Record<string, unknown>>({ index: built, size: 10_000 });
    const operations = hits.hits.flatMap((hit) => {
      const document = { ...hit._source };
      for (const field of NEWER_FIELDS) delete document[field];
      return [{ index: { _index: older, _id: hit._id } }, document];
    });
    const bulk = await client.bulk({ operations, refresh: true });
    expect(bulk.errors, 'the copy into the older index').to.equal(false);
    await client.indices.updateAliases({
      actions: [{ remove: { index: built, alias } }, { add: { index: older, alias } }],
    });
    const [port, metricsPort] = [await freePort(), await freePort()];
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        ES_URL,
        ES_INDEX: alias,
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    api = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const deadline = Date.now() + 30_000;
    while (!output.join('').includes('index contract:')) {
      if (Date.now() > deadline) throw new Error(`no index contract line in:\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await deleteIndices(client, alias);
    await client.close();
  });

  it('logs one line at start naming what the index lacks', () => {
    const lines = output
      .join('')
      .split('\n')
      .filter((line) => line.includes('index contract:'));
    expect(lines).to.have.length(1);
    const line = JSON.parse(lines[0]!) as { level: number; msg: string };
    expect(line.level).to.equal(40); // warn
    expect(line.msg).to.include('reindex_recommended');
    for (const field of NEWER_FIELDS) expect(line.msg).to.include(field);
  });

  it('stays ready with reindex_recommended, and answers the contract from what the index holds', async () => {
    const ready = await fetch(`${api}/health/ready`);
    expect(ready.status).to.equal(200);
    const body = (await ready.json()) as Readiness;
    expect(body.index).to.deep.include({
      status: 'reindex_recommended',
      contract_version: 1,
      release: null,
    });
    expect(body.index.missing_fields).to.have.members(NEWER_FIELDS);
    const list = await fetch(`${api}/api/v1/ppas?q=solar&per_page=3`);
    expect(list.status).to.equal(200);
    expect(((await list.json()) as { meta: { total: number } }).meta.total).to.be.above(0);
  });

  it('reports it as a metric: ppa_reindex_recommended 1, ppa_index_contract_version 1', async () => {
    const text = await (await fetch(metricsUrl)).text();
    expect(text).to.match(/^ppa_reindex_recommended 1$/m);
    expect(text).to.match(/^ppa_index_contract_version 1$/m);
  });

  it('is not ready over an index built for a newer API than itself', async () => {
    await client.indices.putMapping({
      index: older,
      _meta: {
        contract_version: INDEX_CONTRACT_VERSION + 1,
        contract_compatible_from: INDEX_CONTRACT_VERSION + 1,
        release: '99.0.0',
      },
    });
    const ready = await fetch(`${api}/health/ready`);
    expect(ready.status).to.equal(503);
    const body = (await ready.json()) as Readiness & { detail: string };
    expect(body.index.status).to.equal('incompatible');
    expect(body.detail).to.include('release 99.0.0');
    expect(body.detail).to.include('upgrade the API');
  });
});
