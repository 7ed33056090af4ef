// The app over a freshly indexed copy of the shipped sample, for the endpoint suites: call inside a describe;
// it registers the hooks that index, start, check the logs after each test, and clean up.
import { expect } from 'chai';
import { buildTestApp, type TestApp } from './app.js';
import { indexSample } from './sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from './services.js';

export interface SampleApp {
  /** The running app (after the before hook). */
  app: () => TestApp;
  /** A client of the test Elasticsearch, and the alias the sample was indexed under. */
  client: ReturnType<typeof testEsClient>;
  alias: string;
}

export function useSampleApp(name: string): SampleApp {
  const client = testEsClient();
  const alias = uniqueName(name);
  let app: TestApp | undefined;

  before(async () => {
    await indexSample(client, alias);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  // An error logged while answering is a failure even when the answer looked right.
  afterEach(() => {
    const failures = (app?.logs ?? []).filter((line) => line.level >= 50);
    expect(failures, JSON.stringify(failures[0])).to.deep.equal([]);
  });

  return {
    app: () => {
      if (!app) throw new Error('the sample app starts in a before hook');
      return app;
    },
    client,
    alias,
  };
}
