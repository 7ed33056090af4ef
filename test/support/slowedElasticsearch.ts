// What the overload tests share: the sample indexed under one alias, TCP proxies in front of the real Elasticsearch
// (each can hold searches back and counts them), and test apps that have done their own start-up searches (the
// vocabulary's walk) before anything is counted; all of it closed after the file.
import { startTcpProxy, targetOf, type TcpProxy } from '../../tools/services/tcpProxy.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import { indexSample } from './sampleIndex.js';
import { deleteIndices, ES_URL, testEsClient, uniqueName } from './services.js';

export interface SlowedElasticsearch {
  alias: string;
  /** A new proxy in front of Elasticsearch. */
  proxy(): Promise<TcpProxy>;
  /** A test app on the alias, its vocabulary read. */
  app(options: Omit<TestAppOptions, 'alias'>): Promise<TestApp>;
}

/** Registers the file's before and after hooks; call at the top of a describe. */
export function slowedElasticsearch(name: string): SlowedElasticsearch {
  const client = testEsClient();
  const alias = uniqueName(name);
  const proxies: TcpProxy[] = [];
  const apps: TestApp[] = [];
  before(async () => {
    await indexSample(client, alias);
  });
  after(async () => {
    await Promise.all(apps.map((built) => built.close()));
    await Promise.all(proxies.map((started) => started.close()));
    await deleteIndices(client, alias);
    await client.close();
  });
  return {
    alias,
    async proxy() {
      const started = await startTcpProxy(targetOf(ES_URL));
      proxies.push(started);
      return started;
    },
    async app(options) {
      const built = await buildTestApp({ ...options, alias });
      apps.push(built);
      await built.vocabularyRead();
      return built;
    },
  };
}
