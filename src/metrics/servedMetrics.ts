// The metrics of what is served, read from Elasticsearch and the served-state watcher: whether Elasticsearch answers,
// the live index's age and contract, sync's guard and lag, the change log's lag.
import { Gauge, type Registry } from 'prom-client';
import { parseIndexBuiltAt } from '../../indexContract/indexName.js';
import type { ContractReading } from '../../indexContract/contract.js';
import type { ServedState } from '../liveState/lookups.js';
import type { ServedStateWatcher } from '../liveState/servedStateWatcher.js';

export interface MetricsSources {
  liveIndex: () => Promise<string | null>;
  /** The live index judged against this release's contract (src/liveState/lookups.ts). */
  indexContract?: () => Promise<ContractReading | null>;
  /** Whether the cluster answers now (readiness's lookup), for ppa_elasticsearch_up. */
  clusterAnswers: () => Promise<boolean>;
}

/**
 * A gauge read at each scrape, with no sample while its reading is unknown (null): prom-client gives a gauge
 * without labels a 0 after reset(), and a rule would read that 0 as a value (no sync lag while Elasticsearch is
 * away). Absent, the series says nothing, and ppa_elasticsearch_up says why.
 */
class ReadingGauge extends Gauge {
  constructor(
    options: { name: string; help: string; registry: Registry },
    private readonly read: () => Promise<number | null>,
  ) {
    super({ name: options.name, help: options.help, registers: [options.registry] });
  }

  override async get(): ReturnType<Gauge['get']> {
    const value = await this.read();
    this.reset();
    if (value !== null) this.set(value);
    const metric = await super.get();
    return value === null ? { ...metric, values: [] } : metric;
  }
}

/** Whether Elasticsearch answers, and the live index's age and contract: each looked up at every scrape. */
export function registerServedIndexGauges(registry: Registry, sources: MetricsSources): void {
  // Its own lookup at each scrape: with no traffic there is no failed search to tell that the cluster is gone.
  new Gauge({
    name: 'ppa_elasticsearch_up',
    help: '1 while Elasticsearch answers this instance (a lookup at each scrape), else 0',
    registers: [registry],
    async collect() {
      this.set((await sources.clusterAnswers().catch(() => false)) ? 1 : 0);
    },
  });
  new ReadingGauge(
    {
      name: 'ppa_index_generation_age_seconds',
      help: 'Age of the index generation behind the alias (since its build); absent when the alias is missing or Elasticsearch does not answer',
      registry,
    },
    async () => {
      const index = await sources.liveIndex().catch(() => null);
      const builtAt = index ? parseIndexBuiltAt(index) : null;
      return builtAt ? (Date.now() - builtAt.getTime()) / 1000 : null;
    },
  );
  const contractGauge = (name: string, help: string, read: (reading: ContractReading) => number) =>
    new ReadingGauge({ name, help, registry }, async () => {
      const reading = await sources.indexContract?.().catch(() => null);
      return reading ? read(reading) : null;
    });
  contractGauge(
    'ppa_index_contract_version',
    'The index contract the live index was built to (1: before versions were recorded); absent when unknown',
    (reading) => reading.contractVersion ?? 1,
  );
  contractGauge(
    'ppa_reindex_recommended',
    '1 while the live index was built by an older release and lacks what this one serves (a reindex gives it), else 0',
    (reading) => (reading.status === 'reindex_recommended' ? 1 : 0),
  );
}

/** Seconds from a time to now (never below 0); null when there is no time. */
const secondsSince = (time: string | null | undefined): number | null =>
  time ? Math.max(0, (Date.now() - Date.parse(time)) / 1000) : null;

/** Sync's removal guard, sync's lag and the change log's lag, read from the served state at each scrape. */
export function servedStateMetrics(registry: Registry): {
  observeServedState(state: ServedStateWatcher): void;
} {
  let servedState: (() => Promise<ServedState>) | undefined;
  const servedGauge = (name: string, help: string, read: (state: ServedState) => number | null) =>
    new ReadingGauge({ name, help, registry }, async () => {
      const state = await servedState?.().catch(() => undefined);
      return state ? read(state) : null;
    });
  servedGauge(
    'ppa_sync_guard_holding',
    '1 while sync holds back a run that would remove more than --max-removed of the live PPAs, else 0',
    (state) => (state.syncGuard ? 1 : 0),
  );
  servedGauge(
    'ppa_sync_guard_removals',
    'Removals the held-back sync run would make (0 when nothing is held back)',
    (state) => state.syncGuard?.removals ?? 0,
  );
  servedGauge(
    'ppa_sync_lag_seconds',
    "Now minus the high-water mark of sync's last complete run; absent when the live index is not synced",
    (state) => secondsSince(state.highWaterMark),
  );
  servedGauge(
    'ppa_change_lag_seconds',
    'Now minus when the last logged change reached the index; 0 before the first change',
    (state) => secondsSince(state.head?.last_at) ?? 0,
  );
  return {
    observeServedState(state) {
      servedState = () => state.fresh();
    },
  };
}
