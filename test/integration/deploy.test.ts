// Static checks of what ships the service: docker-compose.yml (its monitoring profile too), Dockerfile,
// .dockerignore, the nginx config and the operator's guide, against each other and against the code (the config
// module's variables, the build's output).
// No Docker engine is needed; `docker compose config -q` runs only where the compose plugin is installed.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { SCRAPE_JOB } from '../../deploy/prometheus/slos.js';
import { CONFIG_VARIABLES, CONFIG_VARIABLES_SPEC, loadConfig } from '../../src/config.js';
import { DATASOURCE } from '../../tools/monitoring/dashboard.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(`${root}${path}`, 'utf8');
/** A missing file reads as empty here, so one absent file fails its own tests rather than the whole run. */
const readIfExists = (path: string): string => (existsSync(`${root}${path}`) ? read(path) : '');

// ---- docker-compose.yml ----

type Environment = Record<string, string>;
interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string | number | boolean | null> | string[];
  networks?: string[] | Record<string, unknown>;
  ports?: unknown[];
  expose?: unknown[];
  volumes?: (string | { type?: string; source?: string; target?: string; read_only?: boolean })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  profiles?: string[];
  entrypoint?: string | string[];
  command?: string | string[];
  deploy?: { replicas?: number };
  restart?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = (parseYaml(readIfExists('docker-compose.yml'), { merge: true }) ?? {
  services: {},
}) as ComposeFile;

/** `${VAR:-default}` as compose reads it with VAR unset: the default. */
const withDefaults = (value: string): string => value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');

function environmentOf(service: ComposeService): Environment {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), withDefaults(entry.slice(at + 1))];
      }),
    );
  }
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value === null ? '' : withDefaults(String(value))]),
  );
}

function dependsOn(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(
    Object.entries(deps).map(([name, dep]) => [name, dep.condition ?? 'service_started']),
  );
}

function healthcheckText(service: ComposeService): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

/** The API services: those running the image's default command (the server), one per replica. */
function apiServices(): [string, ComposeService][] {
  return Object.entries(compose.services).filter(
    ([, service]) =>
      service.build !== undefined && service.entrypoint === undefined && service.command === undefined,
  );
}

// ---- deploy/nginx/nginx.conf ----

const nginxConf = readIfExists('deploy/nginx/nginx.conf');
/** Directives without comments, one per statement. */
const nginxStatements = nginxConf
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .join(' ')
  .split(/[;{}]/)
  .map((statement) => statement.trim().replace(/\s+/g, ' '))
  .filter(Boolean);

function upstreamServers(): string[] {
  const upstream = /upstream\s+\S+\s*\{([^}]*)\}/.exec(nginxConf.replace(/#.*$/gm, ''));
  if (!upstream?.[1]) return [];
  return [...upstream[1].matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1] ?? '');
}

// ---- Dockerfile ----

interface Instruction {
  keyword: string;
  args: string;
}
const dockerfile = readIfExists('Dockerfile');
const instructions: Instruction[] = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });

function stages(): Instruction[][] {
  const result: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}
const finalStage = (): Instruction[] => stages().at(-1) ?? [];
const execForm = (args: string): string[] => JSON.parse(args) as string[];

/** The runtime image's start command, as the operator would type it. */
function startCommand(): string {
  const cmd = finalStage().find((instruction) => instruction.keyword === 'CMD');
  return cmd ? execForm(cmd.args).join(' ') : '';
}

const operations = readIfExists('docs/operations.md');

function dockerComposeAvailable(): boolean {
  return spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0;
}

describe('deploy: docker-compose.yml', () => {
  it('has Elasticsearch 8.19 (single node, security off, heap set, named volume, health check on _cluster/health)', () => {
    const es = compose.services.elasticsearch;
    expect(es, 'service "elasticsearch"').to.be.an('object');
    expect(es?.image).to.match(/^docker\.elastic\.co\/elasticsearch\/elasticsearch:8\.19\.\d+$/);
    const env = environmentOf(es ?? {});
    expect(env['discovery.type']).to.equal('single-node');
    expect(env['xpack.security.enabled']).to.equal('false');
    expect(env.ES_JAVA_OPTS)
      .to.match(/-Xms\S+/)
      .and.to.match(/-Xmx\S+/);
    const dataVolume = (es?.volumes ?? []).find(
      (volume) => typeof volume === 'string' && volume.endsWith(':/usr/share/elasticsearch/data'),
    ) as string | undefined;
    expect(dataVolume, 'a volume on /usr/share/elasticsearch/data').to.be.a('string');
    const volumeName = dataVolume?.split(':')[0] ?? '';
    expect(volumeName, 'a named volume, not a bind mount').to.match(/^[a-z0-9][a-z0-9_.-]*$/);
    expect(compose.volumes ?? {}).to.have.property(volumeName);
    expect(healthcheckText(es ?? {})).to.include('_cluster/health');
  });

  it('has Redis with a health check, bounded memory and an eviction policy for keys that all expire', () => {
    const redis = compose.services.redis;
    expect(redis?.image).to.match(/^redis:/);
    expect(healthcheckText(redis ?? {})).to.match(/redis-cli.*ping/);
    const command = Array.isArray(redis?.command) ? redis.command : String(redis?.command ?? '').split(/\s+/);
    const option = (name: string) => command[command.indexOf(name) + 1];
    expect(option('--maxmemory'), '--maxmemory').to.match(/^\d+(mb|gb)$/);
    // Every rate-limit key has a TTL: volatile-* policies evict among them, noeviction would refuse writes.
    expect(option('--maxmemory-policy')).to.be.oneOf(['volatile-ttl', 'volatile-lru', 'allkeys-lru']);
  });

  it('keeps Elasticsearch and Redis on an internal network, the proxy off it, the replicas on both', () => {
    const networksOf = (name: string): string[] => {
      const networks = compose.services[name]?.networks ?? [];
      return Array.isArray(networks) ? networks : Object.keys(networks);
    };
    const declared = (compose as unknown as { networks?: Record<string, { internal?: boolean } | null> })
      .networks;
    const internal = Object.entries(declared ?? {})
      .filter(([, network]) => network?.internal === true)
      .map(([name]) => name);
    expect(internal, 'an internal network').to.have.length(1);
    const [backend = ''] = internal;
    expect(networksOf('elasticsearch')).to.deep.equal([backend]);
    expect(networksOf('redis')).to.deep.equal([backend]);
    expect(networksOf('proxy')).to.not.include(backend);
    for (const [name] of apiServices()) {
      expect(networksOf(name), name).to.include(backend);
      expect(
        networksOf(name).some((network) => networksOf('proxy').includes(network)),
        `${name} reaches the proxy`,
      ).to.equal(true);
    }
    expect(networksOf('indexer')).to.include(backend);
  });

  it('builds links on PUBLIC_BASE_URL, never on a Host a client sent', () => {
    for (const [name, service] of apiServices()) {
      expect(loadConfig(environmentOf(service)).publicBaseUrl, `${name} PUBLIC_BASE_URL`).to.match(
        /^https?:\/\//,
      );
    }
  });

  it('runs two API replicas of the built image, started after Elasticsearch and Redis are healthy', () => {
    const apis = apiServices();
    const replicas = apis.reduce((sum, [, service]) => sum + (service.deploy?.replicas ?? 1), 0);
    expect(replicas, `API replicas in ${apis.map(([name]) => name).join(', ')}`).to.equal(2);
    for (const [name, service] of apis) {
      expect(service.image, `${name} image`).to.equal(apis[0]?.[1].image);
      expect(dependsOn(service), `${name} depends_on`).to.deep.include({
        elasticsearch: 'service_healthy',
        redis: 'service_healthy',
      });
    }
  });

  it('gives the API only variables src/config.ts knows, and a configuration it accepts', () => {
    for (const [name, service] of apiServices()) {
      const env = environmentOf(service);
      const unknown = Object.keys(env).filter(
        (variable) => !(CONFIG_VARIABLES as string[]).includes(variable),
      );
      expect(unknown, `${name}: variables src/config.ts does not read`).to.deep.equal([]);
      // No variable of the config module is required without a default; loadConfig throws on a bad value.
      const config = loadConfig(env);
      expect(config.trustProxyHops, `${name} TRUST_PROXY_HOPS`).to.equal(1);
      expect(config.redisUrl, `${name} REDIS_URL`).to.match(/^redis:\/\/redis(:\d+)?\/?/);
      expect(config.es.nodes, `${name} ES_URL`).to.deep.equal(['http://elasticsearch:9200']);
    }
  });

  it('publishes no port but the proxy’s (TRUST_PROXY_HOPS=1 is only safe when clients cannot bypass nginx), the monitoring profile’s on loopback only', () => {
    const publishing = Object.entries(compose.services).filter(
      ([, service]) => (service.ports ?? []).length > 0,
    );
    const monitoring = (service: ComposeService) => (service.profiles ?? []).includes('monitoring');
    expect(publishing.filter(([, service]) => !monitoring(service)).map(([name]) => name)).to.deep.equal([
      'proxy',
    ]);
    for (const [name, service] of publishing.filter(([, service]) => monitoring(service))) {
      for (const port of service.ports ?? []) expect(String(port), name).to.match(/^127\.0\.0\.1:/);
    }
  });

  it('puts nginx in front with deploy/nginx/nginx.conf mounted read-only, load-balancing every API replica', () => {
    const proxy = compose.services.proxy;
    expect(proxy?.image).to.match(/^nginx:/);
    expect(proxy?.volumes ?? []).to.include('./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro');
    const listen = nginxStatements.find((statement) => statement.startsWith('listen '))?.split(' ')[1] ?? '';
    expect(
      nginxStatements
        .filter((statement) => statement.startsWith('listen '))
        .map((statement) => statement.split(' ')[1]),
      'every server block listens on the one published port',
    ).to.deep.equal([listen, listen]);
    const published = (proxy?.ports ?? []).map(String);
    expect(
      published.some((port) => port.endsWith(`:${listen}`)),
      `a published port maps to listen ${listen}`,
    ).to.equal(true);
    const expected = apiServices().map(
      ([name, service]) => `${name}:${environmentOf(service).PORT ?? '3000'}`,
    );
    expect(upstreamServers()).to.have.members(expected);
    expect(Object.keys(dependsOn(proxy ?? {}))).to.include.members(apiServices().map(([name]) => name));
  });

  it('has the indexer as a one-off service of the same image, kept out of `up` by a profile', () => {
    const indexer = compose.services.indexer;
    expect(indexer, 'service "indexer"').to.be.an('object');
    expect(indexer?.profiles ?? [], 'profiles').to.have.length.above(0);
    expect(indexer?.image).to.equal(apiServices()[0]?.[1].image);
    expect(indexer?.entrypoint).to.deep.equal(['node', 'bin/ppa-indexer.js']);
    expect(dependsOn(indexer ?? {})).to.deep.include({ elasticsearch: 'service_healthy' });
    const env = environmentOf(indexer ?? {});
    const unknown = Object.keys(env).filter(
      (variable) => !(CONFIG_VARIABLES as string[]).includes(variable) && variable !== 'DATABASE_URL',
    );
    expect(unknown, 'indexer variables outside the shared ES_* set and DATABASE_URL').to.deep.equal([]);
    expect(env.ES_URL).to.equal('http://elasticsearch:9200');
    expect(env.ES_INDEX, 'the alias the indexer swaps is the one the API reads').to.equal(
      environmentOf(apiServices()[0]?.[1] ?? {}).ES_INDEX,
    );
    expect(indexer?.volumes ?? []).to.include('./data:/data:ro');
  });

  it('has PostgreSQL on the internal network only, healthy before the one-shot migrate-and-seed runs', () => {
    const backend = Object.entries(
      (compose as unknown as { networks?: Record<string, { internal?: boolean } | null> }).networks ?? {},
    ).find(([, network]) => network?.internal === true)?.[0];
    const postgres = compose.services.postgres;
    expect(postgres?.image).to.match(/^postgres:1[5-9]/);
    expect(postgres?.networks).to.deep.equal([backend]);
    expect(healthcheckText(postgres ?? {})).to.include('pg_isready');
    expect(
      postgres?.volumes?.some((volume) => String(volume).endsWith(':/var/lib/postgresql/data')),
    ).to.equal(true);
    const setup = compose.services['db-setup'];
    expect(setup?.image).to.equal(apiServices()[0]?.[1].image);
    expect(setup?.restart ?? 'no', 'one-shot').to.equal('no');
    expect(String(setup?.command)).to.include('node dist/db/migrate.js && node dist/db/seed.js --if-empty');
    expect(dependsOn(setup ?? {})).to.deep.include({ postgres: 'service_healthy' });
    // The files it runs are what the image builds and copies.
    expect(existsSync(`${root}db/migrate.ts`) && existsSync(`${root}db/seed.ts`)).to.equal(true);
    expect(dockerfile).to.match(/COPY db\/migrations \.\/db\/migrations/);
  });

  it('runs indexer-sync --follow for good after indexer-init built the index from PostgreSQL', () => {
    const init = compose.services['indexer-init'];
    const sync = compose.services['indexer-sync'];
    const apiAlias = environmentOf(apiServices()[0]?.[1] ?? {}).ES_INDEX;
    for (const [name, service] of [
      ['indexer-init', init],
      ['indexer-sync', sync],
    ] as const) {
      expect(service?.image, name).to.equal(apiServices()[0]?.[1].image);
      expect(service?.entrypoint, name).to.deep.equal(['node', 'bin/ppa-indexer.js']);
      const env = environmentOf(service ?? {});
      expect(env.DATABASE_URL, name).to.match(/^postgres:\/\/[^@]+@postgres:5432\/\w+$/);
      expect(env.ES_URL, name).to.equal('http://elasticsearch:9200');
      expect(env.ES_INDEX, `${name}: the API's alias`).to.equal(apiAlias);
      expect(service?.profiles ?? [], `${name} starts with up`).to.deep.equal([]);
    }
    expect(init?.command).to.deep.equal(['reindex', '--if-missing']);
    expect(dependsOn(init ?? {})).to.deep.include({
      elasticsearch: 'service_healthy',
      'db-setup': 'service_completed_successfully',
    });
    expect((sync?.command as string[] | undefined)?.slice(0, 2)).to.deep.equal(['sync', '--follow']);
    expect(sync?.restart).to.equal('unless-stopped');
    expect(dependsOn(sync ?? {})).to.deep.include({ 'indexer-init': 'service_completed_successfully' });
  });

  it('names a sample file in its usage line that data/ really has', () => {
    const compose = read('docker-compose.yml');
    const used = /--source \/data\/(\S+)/.exec(compose)?.[1];
    expect(used, 'the usage comment names --source /data/<file>').to.be.a('string');
    expect(existsSync(`${root}data/${used}`), `data/${used}`).to.equal(true);
  });

  const composeTitle = dockerComposeAvailable()
    ? 'passes `docker compose config -q`'
    : 'passes `docker compose config -q` — NOT RUN: the docker compose plugin is not installed here';
  (dockerComposeAvailable() ? it : it.skip)(composeTitle, () => {
    execFileSync('docker', ['compose', '-f', `${root}docker-compose.yml`, 'config', '-q'], { stdio: 'pipe' });
  });
});

describe('deploy: the compose profile `monitoring` (Prometheus, Grafana)', () => {
  const prometheus = compose.services.prometheus;
  const grafana = compose.services.grafana;
  const networksOf = (service: ComposeService | undefined): string[] => {
    const networks = service?.networks ?? [];
    return Array.isArray(networks) ? networks : Object.keys(networks);
  };
  /** The container path a `./host:container[:ro]` volume of `service` mounts `host` at. */
  const mountOf = (service: ComposeService | undefined, host: string): string | undefined =>
    service?.volumes
      ?.map(String)
      .find((volume) => volume.startsWith(`${host}:`))
      ?.split(':')[1];
  const prometheusConfig = (parseYaml(readIfExists('deploy/prometheus/prometheus.yml')) ?? {}) as {
    rule_files?: string[];
    scrape_configs?: { job_name: string; static_configs: { targets: string[] }[] }[];
  };
  const datasources = (parseYaml(readIfExists('deploy/grafana/provisioning/datasources/prometheus.yml')) ??
    {}) as {
    datasources?: { uid: string; type: string; url: string }[];
  };
  const providers = (parseYaml(readIfExists('deploy/grafana/provisioning/dashboards/ppa-search.yml')) ??
    {}) as {
    providers?: { type: string; options: { path: string } }[];
  };

  it('keeps Prometheus and Grafana out of a plain `up`', () => {
    expect(prometheus?.profiles).to.deep.equal(['monitoring']);
    expect(grafana?.profiles).to.deep.equal(['monitoring']);
  });

  it('runs Prometheus on deploy/prometheus/ (config and generated rules), past the longest SLO window', () => {
    expect(prometheus?.image).to.match(/^prom\/prometheus:v2\.\d+\.\d+$/);
    const dir = mountOf(prometheus, './deploy/prometheus');
    expect(dir, 'a mount of ./deploy/prometheus').to.be.a('string');
    const command = (prometheus?.command ?? []) as string[];
    expect(command).to.include(`--config.file=${dir}/prometheus.yml`);
    expect(prometheusConfig.rule_files).to.deep.equal(['rules/*.yml']);
    const retention = command.find((flag) => flag.startsWith('--storage.tsdb.retention.time='));
    expect(Number(/=(\d+)d$/.exec(retention ?? '')?.[1]), 'retention in days').to.be.at.least(3);
  });

  it('scrapes every API replica on its METRICS_PORT, over a network they share, as the job the rules name', () => {
    const [job, ...others] = prometheusConfig.scrape_configs ?? [];
    expect(others).to.deep.equal([]);
    expect(job?.job_name).to.equal(SCRAPE_JOB);
    expect(job?.static_configs.flatMap((list) => list.targets)).to.have.members(
      apiServices().map(([name, service]) => `${name}:${environmentOf(service).METRICS_PORT}`),
    );
    for (const [name, service] of apiServices()) {
      expect(
        networksOf(service).some((network) => networksOf(prometheus).includes(network)),
        name,
      ).to.equal(true);
      expect(service.expose?.map(String), `${name} exposes METRICS_PORT`).to.include(
        environmentOf(service).METRICS_PORT,
      );
    }
  });

  it('provisions Grafana with that Prometheus and the generated dashboard', () => {
    expect(grafana?.image).to.match(/^grafana\/grafana:\d+\.\d+\.\d+$/);
    expect(mountOf(grafana, './deploy/grafana/provisioning')).to.equal('/etc/grafana/provisioning');
    const [datasource] = datasources.datasources ?? [];
    expect(datasource).to.include({ uid: DATASOURCE.uid, type: 'prometheus', url: 'http://prometheus:9090' });
    expect(networksOf(grafana).some((network) => networksOf(prometheus).includes(network))).to.equal(true);
    const [provider] = providers.providers ?? [];
    expect(provider?.type).to.equal('file');
    expect(mountOf(grafana, './deploy/grafana/dashboards')).to.equal(provider?.options.path);
    const dashboard = JSON.parse(readIfExists('deploy/grafana/dashboards/ppa-search-api.json') || '{}') as {
      panels?: { type: string; datasource?: { uid: string } }[];
    };
    const panels = (dashboard.panels ?? []).filter((panel) => panel.type !== 'row');
    expect(panels, 'panels').to.have.length.above(0);
    expect(panels.filter((panel) => panel.datasource?.uid !== DATASOURCE.uid)).to.deep.equal([]);
  });

  it('is in the guide', () => {
    expect(operations).to.include('docker compose --profile monitoring up');
  });
});

describe('deploy: deploy/nginx/nginx.conf', () => {
  it('appends the client address to X-Forwarded-For and sets the forwarded host and scheme itself', () => {
    expect(nginxStatements).to.include('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for');
    // Set by nginx, so a client-sent X-Forwarded-Host cannot steer the API's absolute links (Koa trusts it
    // once TRUST_PROXY_HOPS > 0).
    expect(nginxStatements).to.include('proxy_set_header X-Forwarded-Host $host');
    expect(nginxStatements).to.include('proxy_set_header Host $host');
    expect(nginxStatements).to.include('proxy_set_header X-Forwarded-Proto $scheme');
    expect(nginxStatements).to.include('proxy_pass http://ppa_api');
  });

  it('drops a client’s trace context: behind TRUST_PROXY_HOPS the API would continue its trace', () => {
    expect(nginxStatements).to.include('proxy_set_header traceparent ""');
    expect(nginxStatements).to.include('proxy_set_header tracestate ""');
  });

  it('passes every other header through (no header hidden, dropped or overwritten)', () => {
    const dropping = nginxStatements.filter((statement) =>
      /^(proxy_hide_header|proxy_pass_request_headers off|more_clear_headers|proxy_ignore_headers|add_header)\b/.test(
        statement,
      ),
    );
    expect(dropping).to.deep.equal([]);
  });

  it('serves only its server_name (and requests without Host); any other Host gets 444 from a default server', () => {
    expect(nginxStatements).to.include('listen 8080 default_server');
    const defaultServer = /server\s*\{\s*listen 8080 default_server;([^}]*)\}/.exec(
      nginxConf.replace(/#.*$/gm, ''),
    );
    expect(defaultServer?.[1]).to.match(/return 444;/);
    const names = nginxStatements.find(
      (statement) => statement.startsWith('server_name ') && statement !== 'server_name _',
    );
    expect(names, 'server_name').to.be.a('string').and.include('""');
  });

  it('keeps /health/* and /metrics to the private networks', () => {
    const location = /location ~\* \^\/\(health\|metrics\)\(\/\|\$\) \{([^}]*)\}/.exec(
      nginxConf.replace(/#.*$/gm, ''),
    );
    expect(location?.[1], 'a location for /health and /metrics').to.be.a('string');
    const rules = (location?.[1] ?? '')
      .split(';')
      .map((rule) => rule.trim())
      .filter((rule) => /^(allow|deny)\b/.test(rule));
    expect(rules).to.deep.equal([
      'allow 10.0.0.0/8',
      'allow 172.16.0.0/12',
      'allow 192.168.0.0/16',
      'allow fc00::/7',
      'deny all',
    ]);
  });

  it('has edge limits: timeouts, connections per client, buffers for the largest legal answer, no passive mark-down', () => {
    for (const directive of [
      'client_header_timeout',
      'client_body_timeout',
      'send_timeout',
      'keepalive_timeout',
    ]) {
      expect(
        nginxStatements.some((statement) => statement.startsWith(`${directive} `)),
        directive,
      ).to.equal(true);
    }
    expect(nginxStatements).to.include('limit_conn_zone $binary_remote_addr zone=per_client:10m');
    expect(nginxStatements.some((statement) => /^limit_conn per_client \d+$/.test(statement))).to.equal(true);
    const kb = (name: string) =>
      Number(/(\d+)k$/.exec(nginxStatements.find((st) => st.startsWith(`${name} `)) ?? '')?.[1]);
    expect(
      kb('proxy_buffer_size'),
      'proxy_buffer_size (KB) above the API’s 8 KB header bound',
    ).to.be.at.least(16);
    expect(upstreamServers()).to.have.length(2);
    expect(nginxConf.replace(/#.*$/gm, '').match(/server api-\d+:3000 max_fails=0;/g)).to.have.length(2);
    expect(
      nginxStatements.some((statement) => statement.includes('request_id=$upstream_http_x_request_id')),
    ).to.equal(true);
  });

  it('leaves user, pid and daemon to the image (the test and the container both add their own)', () => {
    const owned = nginxStatements.filter((statement) => /^(user|pid|daemon)\b/.test(statement));
    expect(owned).to.deep.equal([]);
  });
});

describe('deploy: Dockerfile and .dockerignore', () => {
  it('is multi-stage: a build stage compiles, the runtime stage copies its dist', () => {
    const all = stages();
    expect(all.length, 'stages').to.be.at.least(2);
    const build = all[0] ?? [];
    expect(
      build.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args) && !/--omit=dev/.test(i.args)),
    ).to.equal(true);
    expect(
      build.some((i) => i.keyword === 'RUN' && /npm run build|tsc -p tsconfig\.build\.json/.test(i.args)),
    ).to.equal(true);
    const buildName = /\bAS\s+(\S+)/i.exec(build[0]?.args ?? '')?.[1];
    expect(
      finalStage().some(
        (i) => i.keyword === 'COPY' && i.args.includes(`--from=${buildName}`) && /\bdist\b/.test(i.args),
      ),
    ).to.equal(true);
  });

  it('runs on Node 24 LTS slim/alpine with production dependencies only', () => {
    const runtimeFrom = finalStage()[0]?.args ?? '';
    const base = runtimeFrom.startsWith('$')
      ? (/ARG NODE_IMAGE=(\S+)/.exec(dockerfile)?.[1] ?? '')
      : (runtimeFrom.split(' ')[0] ?? '');
    expect(base).to.match(/^node:24(\.[\d.]+)?-(.*slim|alpine.*)$/);
    // NODE_IMAGE is the one place naming it: the build stage compiles on the same Node as the runtime runs.
    for (const stage of stages()) expect(stage[0]?.args.split(' ')[0], 'FROM').to.equal('${NODE_IMAGE}');
    expect(dockerfile.match(/\bnode:\d+/g), 'Node images named in the Dockerfile').to.have.lengthOf(1);
    expect(operations, 'the guide names the image').to.include(`\`${base}\``);
    expect(finalStage().some((i) => i.keyword === 'RUN' && /\bnpm ci\b.*--omit=dev/.test(i.args))).to.equal(
      true,
    );
  });

  it('copies the compiled code, mappings, sample data and the indexer bin into the runtime stage', () => {
    const copied = finalStage()
      .filter((i) => i.keyword === 'COPY')
      .map((i) => i.args.split(' ').filter((word) => !word.startsWith('--')));
    const sources = copied.flatMap((words) => words.slice(0, -1));
    expect(sources).to.include.members(['/app/dist', 'mappings', 'data', 'bin']);
  });

  it('runs as a non-root user', () => {
    const user =
      finalStage()
        .filter((i) => i.keyword === 'USER')
        .at(-1)?.args ?? '';
    expect(user, 'USER in the runtime stage').to.not.equal('');
    expect(user.split(':')[0]).to.not.be.oneOf(['root', '0']);
  });

  it('has a HEALTHCHECK on /health/ready that needs no curl', () => {
    const healthcheck = finalStage().find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(healthcheck).to.include('/health/ready');
    expect(healthcheck).to.match(/CMD \["node", "-e"/);
  });

  it('starts the compiled server directly with node (SIGTERM reaches it), the file the build emits', () => {
    expect(startCommand()).to.equal('node dist/src/server.js');
    expect(
      finalStage().some((i) => i.keyword === 'ENTRYPOINT'),
      'no ENTRYPOINT wrapping node',
    ).to.equal(false);
    // tsconfig.build.json emits src/server.ts as dist/src/server.js.
    expect(existsSync(`${root}src/server.ts`), 'src/server.ts').to.equal(true);
    const build = JSON.parse(read('tsconfig.build.json')) as { include?: string[] };
    expect(build.include).to.include('src');
  });

  it('has every file it copies in the repository and not excluded by .dockerignore', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).to.include.members(['node_modules', 'dist', '.git']);
    const sources = instructions
      .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))
      .flatMap((i) =>
        i.args
          .split(' ')
          .filter((word) => !word.startsWith('--'))
          .slice(0, -1),
      );
    for (const source of sources) {
      expect(existsSync(`${root}${source}`), `${source} exists`).to.equal(true);
      expect(ignored, `${source} is not in .dockerignore`).to.not.include(source);
    }
  });
});

describe('deploy: docs/operations.md', () => {
  it('exists', () => {
    expect(existsSync(`${root}docs/operations.md`)).to.equal(true);
  });

  it('gives the image’s start command and the indexer’s', () => {
    expect(operations).to.include(startCommand());
    expect(operations).to.include('node bin/ppa-indexer.js');
    expect(operations).to.include('docker compose run --rm indexer reindex --source /data/');
  });

  it('documents every environment variable of src/config.ts with its default', () => {
    for (const name of CONFIG_VARIABLES) {
      const row = operations.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${name}\``));
      expect(row, `a table row for ${name}`).to.be.a('string');
      const spec: { default?: string } = CONFIG_VARIABLES_SPEC[name];
      if (spec.default !== undefined) expect(row, `${name}'s default`).to.include(`\`${spec.default}\``);
    }
  });

  it('points at the OpenAPI document', () => {
    expect(operations).to.include('/api/v1/openapi.json');
  });
});
