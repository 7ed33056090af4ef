import { expect } from 'chai';
import { readEsConfig } from '../../indexer/esClient.js';
import { UsageError } from '../../indexer/errors.js';
import { loadConfig } from '../../src/config.js';

describe('indexer: ES_* variables', () => {
  it('reads the variables the API reads', () => {
    expect(
      readEsConfig({
        ES_URL: 'http://a:9200, http://b:9200',
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
    expect(readEsConfig({ ES_API_KEY: 'k' }).auth).to.deep.equal({ apiKey: 'k' });
  });

  it('takes an empty or blank value as unset, as the API does (compose files write `VAR=`)', () => {
    const blank = {
      ES_URL: '',
      ES_API_KEY: ' ',
      ES_USERNAME: '',
      ES_PASSWORD: '',
      ES_INDEX: '  ',
      ES_REQUEST_TIMEOUT_MS: ' ',
    };
    const api = loadConfig(blank);
    const indexer = readEsConfig(blank);
    expect(indexer.nodes).to.deep.equal(api.esNodes);
    expect(indexer.alias).to.equal(api.esIndex);
    expect(indexer.auth).to.equal(undefined);
    expect(indexer.requestTimeoutMs).to.equal(60_000);
    expect(readEsConfig({ ES_INDEX: ' reviews ' }).alias).to.equal('reviews');
  });

  it('refuses bad values, naming the variable', () => {
    for (const [env, variable] of [
      [{ ES_URL: 'ftp://a' }, 'ES_URL'],
      [{ ES_INDEX: 'Bad' }, 'ES_INDEX'],
      [{ ES_REQUEST_TIMEOUT_MS: '0' }, 'ES_REQUEST_TIMEOUT_MS'],
      [{ ES_USERNAME: 'u' }, 'ES_PASSWORD'],
      [{ ES_API_KEY: 'k', ES_PASSWORD: 'p' }, 'ES_API_KEY'],
    ] as const) {
      expect(() => readEsConfig(env), variable)
        .to.throw(UsageError)
        .with.property('message')
        .that.includes(variable);
    }
  });
});
