import { expect } from 'chai';
import { readIndexerEsSettings } from '../../../indexer/elasticsearch/esClient.js';
import { checkAliasName, readEsSettings } from '../../../settings/elasticsearch.js';
import { ConfigError } from '../../../settings/variables.js';
import { loadConfig } from '../../../src/config.js';

describe('settings: ES_* variables', () => {
  it('reads nodes, credentials, alias and timeout', () => {
    expect(
      readEsSettings({
        ES_URL: 'http://a:9200, http://b:9200/',
        ES_USERNAME: 'u',
        ES_PASSWORD: 'p',
        ES_INDEX: 'ppas-x',
        ES_REQUEST_TIMEOUT_MS: '5000',
      }),
    ).to.deep.equal({
      nodes: ['http://a:9200', 'http://b:9200'],
      auth: { username: 'u', password: 'p' },
      requestTimeoutMs: 5000,
      alias: 'ppas-x',
    });
    expect(readEsSettings({ ES_API_KEY: 'k' }).auth).to.deep.equal({ apiKey: 'k' });
  });

  it('gives the API and the indexer the same settings, but for the indexer’s longer timeout default', () => {
    const env = { ES_URL: 'https://es.example.org:9243', ES_API_KEY: 'k', ES_INDEX: 'reviews' };
    const api = loadConfig(env).es;
    const indexer = readIndexerEsSettings(env);
    expect(indexer).to.deep.equal({ ...api, requestTimeoutMs: 60_000 });
    expect(api.requestTimeoutMs).to.equal(2000);
    expect(readIndexerEsSettings({ ES_REQUEST_TIMEOUT_MS: '7000' }).requestTimeoutMs).to.equal(7000);
  });

  it('takes an empty or blank value as unset (compose files write `VAR=`)', () => {
    const blank = {
      ES_URL: '',
      ES_API_KEY: ' ',
      ES_USERNAME: '',
      ES_PASSWORD: '',
      ES_INDEX: '  ',
      ES_REQUEST_TIMEOUT_MS: ' ',
    };
    const api = loadConfig(blank).es;
    const indexer = readIndexerEsSettings(blank);
    expect(indexer.nodes).to.deep.equal(api.nodes).and.deep.equal(['http://127.0.0.1:9200']);
    expect(indexer.alias).to.equal(api.alias).and.equal('ppas');
    expect(indexer.auth).to.equal(undefined);
    expect(indexer.requestTimeoutMs).to.equal(60_000);
    expect(readEsSettings({ ES_INDEX: ' reviews ' }).alias).to.equal('reviews');
  });

  it('refuses the same bad values in both programs, naming the variable', () => {
    const longestAlias = 'a'.repeat(236);
    expect(readEsSettings({ ES_INDEX: longestAlias }).alias).to.equal(longestAlias);
    for (const [env, variable] of [
      [{ ES_URL: 'ftp://a' }, 'ES_URL'],
      [{ ES_URL: 'http://user:secret@a:9200' }, 'ES_URL'],
      [{ ES_INDEX: 'Bad' }, 'ES_INDEX'],
      [{ ES_INDEX: 'a'.repeat(237) }, 'ES_INDEX'],
      [{ ES_REQUEST_TIMEOUT_MS: '0' }, 'ES_REQUEST_TIMEOUT_MS'],
      [{ ES_REQUEST_TIMEOUT_MS: '300001' }, 'ES_REQUEST_TIMEOUT_MS'],
      [{ ES_USERNAME: 'u' }, 'ES_PASSWORD'],
      [{ ES_API_KEY: 'k', ES_PASSWORD: 'p' }, 'ES_API_KEY'],
    ] as const) {
      for (const read of [readIndexerEsSettings, (e: typeof env) => loadConfig(e)]) {
        expect(() => read(env), variable)
          .to.throw(ConfigError)
          .with.property('message')
          .that.includes(variable);
      }
    }
  });

  it('holds an alias given another way (--alias) to the ES_INDEX rule', () => {
    expect(checkAliasName('ppas-review', '--alias')).to.equal('ppas-review');
    expect(() => checkAliasName('_x', '--alias'))
      .to.throw(ConfigError)
      .with.property('message')
      .that.includes('--alias');
  });
});
