// What every benchmark suite sets up, and takes down again in one place: a work directory, the Elasticsearch of
// ES_URL with a fresh alias (bench-<time>-<random>) and an indexer client for it, a generated corpus indexed with
// the real reindex, compiled API builds and API processes. Everything it starts is undone in reverse order when
// the suite ends, when it fails, and on Ctrl-C (SIGINT), SIGTERM or SIGHUP (a second signal exits at once).
//
//   await withFixture('scale', async (fixture) => {
//     const { alias, client, corpus } = await fixture.indexedCorpus({ count, seed, sampleSize });
//     const api = await fixture.startApi({ build: await fixture.build('dist'), alias, logLevel: 'info' });
//     …
//   });
import type { Client } from '@elastic/elasticsearch';
import type { PpaRecord } from '../indexContract/record.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createIndexerClient, readIndexerEsSettings } from '../indexer/elasticsearch/esClient.js';
import {
  buildApi,
  REPO_ROOT,
  startApi,
  type ApiBuild,
  type ApiMode,
  type ApiProcess,
  type ApiProcessOptions,
} from './perf/apiProcess.js';
import { generateCorpus, type GeneratedCorpus } from './perf/loadCorpus.js';
import {
  benchAlias,
  deleteIndicesWithPrefix,
  esTargetFromEnv,
  type EsTarget,
} from './perf/rawElasticsearch.js';
import { timeReindex, type ReindexTiming } from './perf/indexing.js';

export interface BenchIndex {
  /** The alias; every index the run creates under it starts with this name. */
  alias: string;
  /** An indexer client whose ES_INDEX is the alias. */
  client: Client;
  /** Deletes the alias's indices now (they are deleted at the end anyway). */
  remove(): Promise<void>;
}

export interface CorpusOptions {
  count: number;
  seed: number;
  /** Live records kept as a sample for the request mixes. */
  sampleSize: number;
  /** Each generated record as the suite wants it (e.g. more distinct developers), before it is written. */
  rewrite?: (record: PpaRecord) => PpaRecord;
}

export interface IndexedCorpus extends BenchIndex {
  corpus: GeneratedCorpus;
  /** The reindex that built the alias. */
  indexed: ReindexTiming;
}

export class BenchFixture {
  readonly es: EsTarget = esTargetFromEnv();
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  private closing: Promise<void> | undefined;

  constructor(
    /** The suite's name: it prefixes the log lines and the work directory. */
    readonly name: string,
    /** A temp directory of the suite's own, removed at the end. */
    readonly workDir: string,
  ) {}

  log = (message: string): void => void process.stderr.write(`${this.name}: ${message}\n`);

  /** Runs `cleanup` at the end (cleanups run last registered first). */
  defer(cleanup: () => Promise<unknown>): void {
    this.cleanups.push(cleanup);
  }

  /** A fresh alias and an indexer client for it; its indices are deleted at the end. */
  index(): BenchIndex {
    const alias = benchAlias();
    const client = createIndexerClient(readIndexerEsSettings({ ...process.env, ES_INDEX: alias }));
    const remove = async () => {
      const deleted = await deleteIndicesWithPrefix(this.es, alias);
      if (deleted.length > 0) this.log(`deleted ${deleted.join(', ')}`);
    };
    this.defer(remove);
    this.defer(() => client.close());
    return { alias, client, remove };
  }

  /** N generated records in the work directory (an NDJSON file), with a sample of the live ones. */
  async corpus(options: CorpusOptions, file = 'records.ndjson'): Promise<GeneratedCorpus> {
    this.log(`${options.count} records: generating (seed ${options.seed})…`);
    const corpus = await generateCorpus(join(this.workDir, file), options);
    this.log(
      `${corpus.records} records (${corpus.published} published, ${corpus.live} live) in ${corpus.seconds.toFixed(1)} s`,
    );
    return corpus;
  }

  /** A fresh alias with a generated corpus indexed under it by the real reindex. */
  async indexedCorpus(options: CorpusOptions): Promise<IndexedCorpus> {
    const index = this.index();
    const corpus = await this.corpus(options, `${index.alias}.ndjson`);
    const indexed = await timeReindex(index.client, index.alias, corpus.path);
    this.log(`indexed ${indexed.docs} documents in ${indexed.seconds.toFixed(1)} s`);
    return { ...index, corpus, indexed };
  }

  /** The API compiled into a temp directory (`dist`) or run from its sources (`tsx`); removed at the end. */
  async build(mode: ApiMode, source = REPO_ROOT): Promise<ApiBuild> {
    if (mode === 'dist') this.log('compiling the API (tsc -p tsconfig.build.json into a temp directory)…');
    // --api-root as given, relative to where the bench was started: tsc runs in the source's own folder.
    const build = await buildApi(mode, resolve(source));
    this.defer(() => build.cleanup());
    return build;
  }

  /** An API process on the fixture's Elasticsearch; stopped at the end unless stopped before. */
  async startApi(options: Omit<ApiProcessOptions, 'esUrl'>): Promise<ApiProcess> {
    const api = await startApi({ ...options, esUrl: this.es.url });
    this.defer(() => api.stop());
    return api;
  }

  /** Undoes everything, last first, once (whoever asks first); a failing step is logged, the rest still run. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.cleanups.length > 0) {
        await this.cleanups.pop()!().catch((error: unknown) => this.log(`cleanup failed: ${String(error)}`));
      }
      await rm(this.workDir, { recursive: true, force: true });
    })();
    return this.closing;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs a suite with a fixture and closes it however the suite ends. On a signal the fixture is closed and the
 * process exits with 130; a second signal exits at once.
 */
export async function withFixture<T>(name: string, suite: (fixture: BenchFixture) => Promise<T>): Promise<T> {
  const fixture = new BenchFixture(name, await mkdtemp(join(tmpdir(), `ppa-bench-${name}-`)));
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(130);
    signalled = true;
    fixture.log(`${signal}: cleaning up…`);
    void fixture.close().then(() => process.exit(130));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    return await suite(fixture);
  } catch (error) {
    // After a signal, an error is only the echo of the cleanup pulling things away: the handler exits.
    if (signalled) await new Promise(() => undefined);
    throw error;
  } finally {
    await fixture.close();
    for (const signal of SIGNALS) process.off(signal, onSignal);
  }
}
