// elasticsearch/esClient: the indexer's client settings (the shared ES_* with a batch job's 60 s timeout), its client
// (a failed request tried again on another node of ES_URL: two local HTTP servers, one closed), and the start-up
// check that asks the cluster's health once per node within 10 s and names ES_URL when it cannot.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkElasticsearch,
  createIndexerClient,
  INDEXER_ES_DEFAULTS,
  readIndexerEsSettings,
} from '../../../../indexer/elasticsearch/esClient.js';
import { ElasticsearchError } from '../../../../indexer/elasticsearch/elasticsearchErrors.js';
import { ConfigError } from '../../../../settings/variables.js';
import { fakeCluster } from '../../../support/fakeConnection.js';
import { rejectionOf } from '../../../support/rejection.js';

const HEADERS = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };

function listening(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

describe('indexer/elasticsearch/esClient', () => {
  it('reads the ES_* variables with a 60 s request timeout by default, and refuses a bad one', () => {
    expect(INDEXER_ES_DEFAULTS).to.deep.equal({ ES_REQUEST_TIMEOUT_MS: '60000' });
    expect(readIndexerEsSettings({})).to.include({ requestTimeoutMs: 60_000, alias: 'ppas' });
    const set = readIndexerEsSettings({
      ES_URL: 'http://a:9200/,http://b:9200',
      ES_REQUEST_TIMEOUT_MS: '5000',
    });
    expect(set).to.deep.include({ requestTimeoutMs: 5000, nodes: ['http://a:9200', 'http://b:9200'] });
    expect(() => readIndexerEsSettings({ ES_REQUEST_TIMEOUT_MS: 'soon' })).to.throw(
      ConfigError,
      /ES_REQUEST_TIMEOUT_MS/,
    );
  });

  it('tries a request again on another node when one cannot be reached', async () => {
    const closed = createServer();
    const closedUrl = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    let asked = 0;
    const server = createServer((_request, response) => {
      asked++;
      response.writeHead(200, HEADERS).end(JSON.stringify({ status: 'green' }));
    });
    const url = await listening(server);
    try {
      const client = createIndexerClient({ nodes: [closedUrl, url], alias: 'ppas', requestTimeoutMs: 2000 });
      // Round robin: whichever node comes first, both requests are answered.
      for (let i = 0; i < 2; i++) expect(await client.cluster.health()).to.deep.equal({ status: 'green' });
      expect(asked).to.equal(2);
      await client.close();
    } finally {
      server.close();
    }
  });

  it('checks the cluster once per node within at most 10 s, and names ES_URL when it cannot be reached', async () => {
    const up = fakeCluster(() => ({ body: { status: 'yellow' } }));
    const nodes = ['http://node-a:9200'];
    await checkElasticsearch(up.client, { nodes, alias: 'ppas', requestTimeoutMs: 60_000 });
    expect(up.calls[0]).to.include({ method: 'GET', path: '/_cluster/health', timeout: 10_000 });
    expect(up.calls[0]!.querystring).to.equal('filter_path=status');

    const two = ['node-a:9200', 'node-b:9200'];
    const down = fakeCluster(() => 'refused', two);
    const settings = { nodes: two.map((node) => `http://${node}`), alias: 'ppas', requestTimeoutMs: 3000 };
    const error = await rejectionOf(checkElasticsearch(down.client, settings));
    expect(error).to.be.instanceOf(ElasticsearchError);
    expect(String(error)).to.include(
      'Elasticsearch at http://node-a:9200, http://node-b:9200 cannot be reached',
    );
    expect(down.calls.map((call) => call.node).sort()).to.deep.equal(two);
    expect(down.calls[0]!.timeout).to.equal(3000);
  });
});
