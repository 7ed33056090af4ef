// commands/cliRun: the steps every command takes with its run. Checked: --source, else DATABASE_URL, and sync's
// postgres:// only; --alias checked, else ES_INDEX, told to the closing sentence; a client of ES_URL only once the
// cluster answered (the fake Elasticsearch over HTTP), a refused one naming ES_URL, the client closed after the
// action whatever its outcome; the change log's retention from CHANGES_RETENTION_DAYS; the first signal aborting the
// run with a warning (its listener called directly: the test runner's own are left alone).
import { errors, type Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import {
  abortOnSignals,
  aliasFrom,
  changeLogOptions,
  connectedClient,
  sourceFrom,
  withClient,
} from '../../../../indexer/commands/cliRun.js';
import { ElasticsearchError } from '../../../../indexer/elasticsearch/elasticsearchErrors.js';
import { UsageError } from '../../../../indexer/errors.js';
import { ConfigError } from '../../../../settings/variables.js';
import { cliRun, withEnv, withoutNewSignalListeners } from '../../../support/cliRuns.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { rejectionOf } from '../../../support/rejection.js';
import { freePort } from '../../../../tools/services/net.js';

describe('indexer/commands/cliRun', () => {
  it('takes --source, else DATABASE_URL, and only a postgres:// URL for sync', async () => {
    await withEnv({ DATABASE_URL: ' postgres://db/ppas ' }, async () => {
      expect(sourceFrom('data.ndjson')).to.equal('data.ndjson');
      expect(sourceFrom(undefined)).to.equal('postgres://db/ppas');
      expect(sourceFrom(undefined, true)).to.equal('postgres://db/ppas');
    });
    await withEnv({ DATABASE_URL: '  ' }, async () => {
      expect(() => sourceFrom(undefined)).to.throw(UsageError, '--source is required (or set DATABASE_URL)');
    });
    expect(() => sourceFrom('data.ndjson', true)).to.throw(
      UsageError,
      '--source must be a postgres:// URL for sync, got "data.ndjson"',
    );
  });

  it('takes --alias, checked, else ES_INDEX, and tells it to the closing sentence', async () => {
    const run = cliRun();
    expect(aliasFrom('eu-ppas', run)).to.equal('eu-ppas');
    expect(run.context.alias).to.equal('eu-ppas');
    expect(() => aliasFrom('Bad Alias', run)).to.throw(ConfigError, /--alias/);
    await withEnv({ ES_INDEX: 'from-env' }, async () =>
      expect(aliasFrom(undefined, run)).to.equal('from-env'),
    );
  });

  it('gives a client once the cluster answered, and closes it after the action, whatever its outcome', async () => {
    const es = fakeElasticsearch();
    es.addIndex('ppas-x', { aliases: ['ppas'] });
    const http = await es.listen();
    try {
      await withEnv({ ES_URL: http.url }, async () => {
        const run = cliRun();
        let used: Client | undefined;
        const target = await withClient(run, async (client) => {
          used = client;
          return Object.keys(await client.indices.getAlias({ name: 'ppas' }));
        });
        expect(target).to.deep.equal(['ppas-x']);
        expect(run.context.esNodes).to.deep.equal([http.url]);
        expect(es.requests()[0]).to.equal('GET /_cluster/health');
        expect(await rejectionOf(used!.cluster.health())).to.be.instanceOf(errors.NoLivingConnectionsError);

        const failed = await rejectionOf(
          withClient(run, async (client) => {
            used = client;
            throw new Error('the action failed');
          }),
        );
        expect(String(failed)).to.include('the action failed');
        expect(await rejectionOf(used!.cluster.health())).to.be.instanceOf(errors.NoLivingConnectionsError);
      });
    } finally {
      await http.close();
    }
  });

  it('names ES_URL when the cluster cannot be reached', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    await withEnv({ ES_URL: url }, async () => {
      const error = await rejectionOf(connectedClient(cliRun()));
      expect(error).to.be.instanceOf(ElasticsearchError);
      expect(String(error)).to.include(`Elasticsearch at ${url} cannot be reached`);
    });
  });

  it('reads the change log’s retention from CHANGES_RETENTION_DAYS, with the run’s log', async () => {
    const run = cliRun();
    await withEnv({ CHANGES_RETENTION_DAYS: '7.5' }, async () => {
      expect(changeLogOptions(run.logger)).to.deep.include({ retentionDays: 7.5, logger: run.logger });
    });
  });

  it('aborts the run on the first SIGINT or SIGTERM, with a warning', async () => {
    await withoutNewSignalListeners(async () => {
      const run = cliRun();
      const before = process.listeners('SIGTERM');
      const controller = abortOnSignals(run);
      const added = process.listeners('SIGTERM').filter((listener) => !before.includes(listener));
      expect(added).to.have.length(1);
      (added[0] as (signal: string) => void)('SIGTERM');
      expect(controller.signal.aborted).to.equal(true);
      expect(controller.signal.reason).to.equal('SIGTERM');
      expect(run.lines.join('')).to.include('stopping: cleaning up (send the signal again to exit at once)');
    });
  });
});
