// loadConfig: every variable of api.md's configuration table, its default, good values and bad ones (named).
import { expect } from 'chai';
import {
  CONFIG_VARIABLES,
  CONFIG_VARIABLES_SPEC,
  ConfigError,
  loadConfig,
  type Config,
} from '../../../src/config.js';

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function expectRejected(variable: string, value: string, extra: Record<string, string> = {}): void {
  const error = failure({ ...extra, [variable]: value });
  expect(error.message, `${variable}=${value}`).to.include(variable);
  expect(error.problems.map((problem) => problem.variable)).to.include(variable);
}

describe('app config: loadConfig', () => {
  it('knows exactly the variables of the contract', () => {
    expect([...CONFIG_VARIABLES].sort()).to.deep.equal(
      [
        'PORT',
        'HOST',
        'ES_URL',
        'ES_API_KEY',
        'ES_USERNAME',
        'ES_PASSWORD',
        'ES_INDEX',
        'ES_REQUEST_TIMEOUT_MS',
        'REDIS_URL',
        'RATE_LIMIT_POINTS',
        'RATE_LIMIT_WINDOW_S',
        'TRUST_PROXY_HOPS',
        'PUBLIC_BASE_URL',
        'CACHE_MAX_AGE_S',
        'EXPORT_CONCURRENCY',
        'RESPONSE_CACHE_MB',
        'METRICS_PORT',
        'ADMISSION_MAX_IN_FLIGHT',
        'ADMISSION_TARGET_MS',
        'ADMISSION_LOOP_DELAY_MS',
        'OCDS_OCID_PREFIX',
        'OCDS_PUBLISHER_NAME',
        'OCDS_LICENSE',
        'OCDS_PUBLICATION_POLICY',
        'LOG_LEVEL',
        'OTEL_TRACES_EXPORTER',
        'OTEL_SDK_DISABLED',
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
        'OTEL_SERVICE_NAME',
        'ZERO_RESULTS_RETENTION_DAYS',
      ].sort(),
    );
    for (const name of CONFIG_VARIABLES) expect(CONFIG_VARIABLES_SPEC[name].meaning, name).to.be.a('string');
  });

  it('has the documented defaults for an empty environment', () => {
    const expected: Config = {
      port: 3000,
      host: '0.0.0.0',
      es: { nodes: ['http://127.0.0.1:9200'], alias: 'ppas', requestTimeoutMs: 2000 },
      zeroResultsRetentionDays: 30,
      rateLimitPoints: 60,
      rateLimitWindowSeconds: 60,
      responseCacheBytes: 32 * 1024 * 1024,
      trustProxyHops: 0,
      exportConcurrency: 4,
      cacheMaxAgeSeconds: 60,
      admissionMaxInFlight: 64,
      admissionTargetMs: 1000,
      admissionLoopDelayMs: 40,
      ocidPrefix: 'ocds-unregistered',
      ocdsPublisherName: 'PPA search API',
      logLevel: 'info',
      tracesExporter: 'none',
      otelSdkDisabled: false,
      otelServiceName: 'ppa-search-api',
    };
    expect(loadConfig({})).to.deep.equal(expected);
  });

  it('treats empty and blank values as unset and ignores unrelated variables', () => {
    const config = loadConfig({ PORT: '', HOST: '  ', REDIS_URL: '', PATH: '/usr/bin', ES_INDEX: ' ppas ' });
    expect(config.port).to.equal(3000);
    expect(config.host).to.equal('0.0.0.0');
    expect(config.redisUrl).to.equal(undefined);
    expect(config.es.alias).to.equal('ppas');
  });

  it('does not read process.env by itself (pure)', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4567';
    try {
      expect(loadConfig({}).port).to.equal(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  describe('PORT', () => {
    it('accepts 0..65535', () => {
      expect(loadConfig({ PORT: '8080' }).port).to.equal(8080);
      expect(loadConfig({ PORT: '0' }).port).to.equal(0);
      expect(loadConfig({ PORT: '65535' }).port).to.equal(65535);
    });
    for (const bad of ['abc', '-1', '65536', '3.5', '1e3', '0x50', '80 80']) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('PORT', bad));
    }
  });

  describe('HOST', () => {
    it('accepts host names, IPv4 and IPv6', () => {
      for (const host of ['localhost', '127.0.0.1', '::', '::1', 'api.internal']) {
        expect(loadConfig({ HOST: host }).host).to.equal(host);
      }
    });
    for (const bad of ['bad host', 'http://x', 'a/b']) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('HOST', bad));
    }
  });

  describe('ES_URL', () => {
    it('splits comma-separated nodes, trims them and drops trailing slashes', () => {
      expect(loadConfig({ ES_URL: 'http://es1:9200, https://es2.example.org:9243/' }).es.nodes).to.deep.equal(
        ['http://es1:9200', 'https://es2.example.org:9243'],
      );
    });
    for (const bad of [
      'es:9200',
      'ftp://es:9200',
      'http://a:9200,,http://b:9200',
      'http://user:pw@es:9200',
      'http://es:9200?x=1',
    ]) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('ES_URL', bad));
    }
    it('never echoes credentials written into the URL', () => {
      expect(failure({ ES_URL: 'http://user:secret@es:9200' }).message).not.to.include('secret');
    });
  });

  describe('ES_API_KEY, ES_USERNAME, ES_PASSWORD', () => {
    it('accepts an API key alone', () => {
      expect(loadConfig({ ES_API_KEY: 'aWQ6a2V5' }).es.auth).to.deep.equal({ apiKey: 'aWQ6a2V5' });
    });
    it('accepts a user name with a password', () => {
      const config = loadConfig({ ES_USERNAME: 'reader', ES_PASSWORD: 's3cret pass' });
      expect(config.es.auth).to.deep.equal({ username: 'reader', password: 's3cret pass' });
    });
    it('rejects a user name without a password, and a password without a user name', () => {
      expectRejected('ES_PASSWORD', '', { ES_USERNAME: 'reader' });
      expectRejected('ES_USERNAME', '', { ES_PASSWORD: 'pw' });
    });
    it('rejects an API key together with basic auth', () => {
      const error = failure({ ES_API_KEY: 'k', ES_USERNAME: 'u', ES_PASSWORD: 'p' });
      expect(error.message).to.include('ES_API_KEY').and.to.include('ES_USERNAME');
    });
    it('rejects an API key with spaces, without echoing it', () => {
      const error = failure({ ES_API_KEY: 'two words' });
      expect(error.message).to.include('ES_API_KEY').and.not.to.include('two words');
    });
  });

  describe('ES_INDEX', () => {
    it('accepts alias names', () => {
      expect(loadConfig({ ES_INDEX: 'ppas-test_1.v2' }).es.alias).to.equal('ppas-test_1.v2');
    });
    for (const bad of ['PPAS', '-ppas', '_ppas', '.ppas', 'pp as', 'pp*', 'a/b', 'x'.repeat(237)]) {
      it(`rejects ${JSON.stringify(bad.slice(0, 20))}`, () => expectRejected('ES_INDEX', bad));
    }
  });

  describe('ES_REQUEST_TIMEOUT_MS', () => {
    for (const value of ['1', '2000', '300000']) {
      it(`accepts ${value}`, () => {
        expect(loadConfig({ ES_REQUEST_TIMEOUT_MS: value }).es.requestTimeoutMs).to.equal(Number(value));
      });
    }
    for (const bad of ['0', '-5', '300001', '2s']) {
      it(`rejects ${bad}`, () => expectRejected('ES_REQUEST_TIMEOUT_MS', bad));
    }
  });

  describe('integers with bounds', () => {
    const cases: [string, keyof Config, string[], string[]][] = [
      ['RATE_LIMIT_POINTS', 'rateLimitPoints', ['1', '60', '1000000'], ['0', '1000001', 'many', '1.5']],
      ['RATE_LIMIT_WINDOW_S', 'rateLimitWindowSeconds', ['1', '60', '86400'], ['0', '86401', '1m']],
      ['TRUST_PROXY_HOPS', 'trustProxyHops', ['0', '1', '32'], ['-1', '33', 'true']],
      ['CACHE_MAX_AGE_S', 'cacheMaxAgeSeconds', ['0', '60', '31536000'], ['-1', '31536001', '1h']],
    ];
    for (const [variable, field, good, bad] of cases) {
      it(`${variable}: accepts ${good.join(', ')}`, () => {
        for (const value of good) expect(loadConfig({ [variable]: value })[field]).to.equal(Number(value));
      });
      it(`${variable}: rejects ${bad.join(', ')}`, () => {
        for (const value of bad) expectRejected(variable, value);
      });
    }
  });

  describe('REDIS_URL', () => {
    it('accepts redis:// and rediss:// URLs', () => {
      expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).to.equal('redis://127.0.0.1:6379');
      expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache:6380/2' }).redisUrl).to.equal(
        'rediss://:pw@cache:6380/2',
      );
    });
    it('accepts a Cluster (seed nodes) and a Sentinel group (sentinels and master name)', () => {
      const cluster = 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000';
      expect(loadConfig({ REDIS_URL: cluster }).redisUrl).to.equal(cluster);
      const sentinel = 'redis+sentinel://:pw@s1:26379,s2:26379/ppa-limits';
      expect(loadConfig({ REDIS_URL: sentinel }).redisUrl).to.equal(sentinel);
    });
    for (const bad of [
      '127.0.0.1:6379',
      'http://cache:6379',
      'redis://',
      'redis://a:1,b:2',
      'redis+cluster://a:7000/2',
      'redis+sentinel://s1:26379',
    ]) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('REDIS_URL', bad));
    }
    it('says what is wrong with a Cluster or Sentinel URL', () => {
      expect(failure({ REDIS_URL: 'redis+sentinel://s1:26379' }).message).to.include(
        'name the master after the sentinels',
      );
      expect(failure({ REDIS_URL: 'redis+cluster://a:7000,b:port' }).message).to.match(
        /REDIS_URL must be .*: seed node 2 \("b:port"\) has no port from 1 to 65535/,
      );
    });
    it('never echoes a password in a Cluster URL', () => {
      expect(failure({ REDIS_URL: 'redis+cluster://:hunter2@a:0' }).message).not.to.include('hunter2');
    });
    it('never echoes a password written into the URL', () => {
      expect(failure({ REDIS_URL: 'memcache://:hunter2@x' }).message).not.to.include('hunter2');
    });
  });

  describe('PUBLIC_BASE_URL', () => {
    it('accepts absolute http(s) URLs, with a path, and drops the trailing slash', () => {
      expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.org/' }).publicBaseUrl).to.equal(
        'https://api.example.org',
      );
      expect(loadConfig({ PUBLIC_BASE_URL: 'http://localhost:3000' }).publicBaseUrl).to.equal(
        'http://localhost:3000',
      );
      expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.org/ppa-api//' }).publicBaseUrl).to.equal(
        'https://example.org/ppa-api',
      );
    });
    for (const bad of [
      'api.example.org',
      '/api',
      'ftp://example.org',
      'https://example.org/?a=1',
      'https://example.org/#x',
      'https://u:p@example.org',
    ]) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('PUBLIC_BASE_URL', bad));
    }
  });

  describe('RESPONSE_CACHE_MB', () => {
    it('is a bound in MiB; 0 turns the cache off', () => {
      expect(loadConfig({ RESPONSE_CACHE_MB: '0' }).responseCacheBytes).to.equal(0);
      expect(loadConfig({ RESPONSE_CACHE_MB: '2' }).responseCacheBytes).to.equal(2 * 1024 * 1024);
    });
    for (const bad of ['-1', '1.5', '65537', 'big']) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('RESPONSE_CACHE_MB', bad));
    }
  });

  describe('OCDS_* (the OCDS answers)', () => {
    it('defaults to a prefix that says it is not registered; takes a registered one and the publisher’s terms', () => {
      expect(loadConfig({}).ocidPrefix).to.equal('ocds-unregistered');
      const config = loadConfig({
        OCDS_OCID_PREFIX: 'ocds-a1b2c3',
        OCDS_PUBLISHER_NAME: 'Ministry of Energy',
        OCDS_LICENSE: 'https://creativecommons.org/licenses/by/4.0/',
        OCDS_PUBLICATION_POLICY: 'https://example.org/policy',
      });
      expect(config.ocidPrefix).to.equal('ocds-a1b2c3');
      expect(config.ocdsPublisherName).to.equal('Ministry of Energy');
      expect(config.ocdsLicense).to.equal('https://creativecommons.org/licenses/by/4.0/');
      expect(config.ocdsPublicationPolicy).to.equal('https://example.org/policy');
    });
    for (const bad of ['ocds-abc', 'ocds-ABCDEF', 'abcdef', 'ocds-a1b2c3-x']) {
      it(`OCDS_OCID_PREFIX rejects ${JSON.stringify(bad)}`, () => expectRejected('OCDS_OCID_PREFIX', bad));
    }
    it('OCDS_LICENSE rejects a URL that is not absolute', () => expectRejected('OCDS_LICENSE', 'cc-by'));
  });

  describe('LOG_LEVEL', () => {
    it('accepts pino levels', () => {
      for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
        expect(loadConfig({ LOG_LEVEL: level }).logLevel).to.equal(level);
      }
    });
    for (const bad of ['verbose', 'INFO', '30']) {
      it(`rejects ${JSON.stringify(bad)}`, () => expectRejected('LOG_LEVEL', bad));
    }
  });

  describe('OTEL_* (traces)', () => {
    it('are off by default and on with OTEL_TRACES_EXPORTER=otlp', () => {
      expect(loadConfig({}).tracesExporter).to.equal('none');
      expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracesExporter).to.equal('otlp');
      expect(loadConfig({ OTEL_SDK_DISABLED: 'true' }).otelSdkDisabled).to.equal(true);
      expect(loadConfig({ OTEL_SERVICE_NAME: 'api-eu' }).otelServiceName).to.equal('api-eu');
    });
    it('sends to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces, or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is', () => {
      const config = loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.org/otlp',
      });
      expect(config.otlpEndpoint).to.equal('http://collector:4318/v1/traces');
      expect(config.otlpTracesEndpoint).to.equal('https://traces.example.org/otlp');
    });
    for (const [variable, bad] of [
      ['OTEL_TRACES_EXPORTER', 'jaeger'],
      ['OTEL_TRACES_EXPORTER', 'OTLP'],
      ['OTEL_SDK_DISABLED', 'yes'],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'http://u:p@collector:4318/v1/traces'],
    ] as const) {
      it(`rejects ${variable}=${JSON.stringify(bad)}`, () => expectRejected(variable, bad));
    }
  });

  it('names every bad variable at once', () => {
    const error = failure({ PORT: 'x', LOG_LEVEL: 'loud', CACHE_MAX_AGE_S: '-1' });
    expect(error.problems.map((problem) => problem.variable).sort()).to.deep.equal([
      'CACHE_MAX_AGE_S',
      'LOG_LEVEL',
      'PORT',
    ]);
  });
});
