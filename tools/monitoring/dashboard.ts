// The Grafana dashboard an operator opens first: the SLOs' burn rates (one panel per declared SLO), then traffic,
// admission, Elasticsearch, the cache and freshness, and the instances. Pure: outputs.ts writes it, the compose
// profile provisions it (deploy/grafana/). Fixed windows rather than Grafana variables, so that every expression is
// PromQL as it stands (the dashboard test parses each with promtool).
import { BURN_RATE_ALERTS, SLOS } from '../../deploy/prometheus/slos.js';
import { errorBudget, RECORDS } from './rules.js';

/** The datasource the compose profile provisions (deploy/grafana/provisioning/datasources/). */
export const DATASOURCE = { type: 'prometheus', uid: 'ppa-prometheus' } as const;
export const DASHBOARD_UID = 'ppa-search-api';

interface PanelSpec {
  title: string;
  description: string;
  unit: string;
  targets: { expr: string; legend: string }[];
  /** A stat panel, red from this value up; otherwise a time series. */
  redFrom?: number;
  width?: number;
}

interface RowSpec {
  title: string;
  panels: PanelSpec[];
}

const burn = (sloName: string, window: string, budget: number) =>
  `${RECORDS.ratio(window)}{slo="${sloName}"} / ${budget}`;

const pageFactor = BURN_RATE_ALERTS.find((alert) => alert.severity === 'page')?.windows[0]?.factor;

function sloRow(): RowSpec {
  return {
    title: 'Service-level objectives (burn rate 1: the budget spent exactly over the period)',
    panels: [
      {
        title: 'Burn rate over 3 days, each SLO',
        description:
          'The share of events that failed over 3 days, divided by the error budget (1 − objective). Above 1 the SLO is being missed.',
        unit: 'none',
        redFrom: 1,
        width: 24,
        targets: SLOS.map((slo) => ({ expr: burn(slo.name, '3d', errorBudget(slo)), legend: slo.name })),
      },
      ...SLOS.map((slo) => ({
        title: `${slo.name}: burn rate`,
        description: `${slo.measures}; objective ${slo.objective}. A page at ${pageFactor} over 1 h and 5 min (docs/operations.md, "Monitoring").`,
        unit: 'none',
        targets: ['5m', '1h', '6h', '3d'].map((window) => ({
          expr: burn(slo.name, window, errorBudget(slo)),
          legend: window,
        })),
      })),
    ],
  };
}

const rate = (selector: string) => `rate(${selector}[5m])`;
const p99 = (histogram: string, by: string) =>
  `histogram_quantile(0.99, sum by (${by}, le) (${rate(`${histogram}_bucket`)}))`;

const ROWS: RowSpec[] = [
  sloRow(),
  {
    title: 'Traffic',
    panels: [
      {
        title: 'Answers by route',
        description: 'Answers a second, by route template (all instances).',
        unit: 'reqps',
        targets: [{ expr: `sum by (route) (${rate('ppa_http_requests_total')})`, legend: '{{route}}' }],
      },
      {
        title: 'Answers by status',
        description: 'Answers a second by status (overload refusals are 503s too: see the admission row).',
        unit: 'reqps',
        targets: [{ expr: `sum by (status) (${rate('ppa_http_requests_total')})`, legend: '{{status}}' }],
      },
      {
        title: 'Time to answer, p99 by route',
        description: 'Server side, from the API’s histogram.',
        unit: 's',
        targets: [{ expr: p99('ppa_http_request_duration_seconds', 'route'), legend: '{{route}}' }],
      },
    ],
  },
  {
    title: 'Admission and refusals',
    panels: [
      {
        title: 'Admission: limit, in flight, queued',
        description:
          'Searches each instance lets run at once now, those running, and those waiting for a slot.',
        unit: 'none',
        targets: [
          { expr: 'ppa_admission_limit', legend: 'limit {{instance}}' },
          { expr: 'ppa_admission_in_flight', legend: 'in flight {{instance}}' },
          { expr: 'ppa_admission_queued', legend: 'queued {{instance}}' },
        ],
      },
      {
        title: 'Refusals',
        description: 'Overload refusals (503 overloaded) by route, and rate-limit refusals (429).',
        unit: 'reqps',
        targets: [
          {
            expr: `sum by (route) (${rate('ppa_overload_refusals_total')})`,
            legend: 'overload {{route}}',
          },
          { expr: `sum(${rate('ppa_rate_limit_refusals_total')})`, legend: 'rate limit' },
        ],
      },
      {
        title: 'Wait for a slot, p99',
        description: 'How long admitted searches waited (0 when a slot was free).',
        unit: 's',
        targets: [{ expr: p99('ppa_admission_queue_wait_seconds', 'instance'), legend: '{{instance}}' }],
      },
    ],
  },
  {
    title: 'Elasticsearch',
    panels: [
      {
        title: 'Search latency, p50 and p99',
        description: 'Each round trip to Elasticsearch (search, msearch, get), by outcome.',
        unit: 's',
        targets: [
          {
            expr: `histogram_quantile(0.5, sum by (outcome, le) (${rate('ppa_search_duration_seconds_bucket')}))`,
            legend: 'p50 {{outcome}}',
          },
          { expr: p99('ppa_search_duration_seconds', 'outcome'), legend: 'p99 {{outcome}}' },
        ],
      },
      {
        title: 'Searches by outcome',
        description: 'Round trips a second; `error` includes timeouts and refused connections.',
        unit: 'reqps',
        targets: [
          { expr: `sum by (outcome) (${rate('ppa_search_duration_seconds_count')})`, legend: '{{outcome}}' },
        ],
      },
      {
        title: 'Elasticsearch answers',
        description: '1 while Elasticsearch answers the instance (a lookup at each scrape).',
        unit: 'none',
        targets: [{ expr: 'ppa_elasticsearch_up', legend: '{{instance}}' }],
      },
    ],
  },
  {
    title: 'Cache and freshness',
    panels: [
      {
        title: 'Response cache hit ratio',
        description: 'Answers sent from the cache, of the cacheable requests.',
        unit: 'percentunit',
        targets: [
          {
            expr: `sum(${rate('ppa_response_cache_hits_total')}) / (sum(${rate('ppa_response_cache_hits_total')}) + sum(${rate('ppa_response_cache_misses_total')}))`,
            legend: 'hit ratio',
          },
        ],
      },
      {
        title: 'Response cache use',
        description: 'Bytes held, as a share of RESPONSE_CACHE_MB.',
        unit: 'percentunit',
        targets: [
          { expr: 'ppa_response_cache_bytes / ppa_response_cache_max_bytes', legend: '{{instance}}' },
        ],
      },
      {
        title: 'Change lag and sync lag',
        description:
          'Sync lag: how far behind sync’s last complete run reads PostgreSQL (the freshness SLO). Change lag: since the last change reached the index (grows while nothing changes).',
        unit: 's',
        targets: [
          { expr: 'max(ppa_sync_lag_seconds)', legend: 'sync lag' },
          { expr: 'max(ppa_change_lag_seconds)', legend: 'change lag' },
        ],
      },
      {
        title: 'Index generation age',
        description: 'Since the served generation was built (a reindex starts it again).',
        unit: 's',
        targets: [{ expr: 'max(ppa_index_generation_age_seconds)', legend: 'age' }],
      },
      {
        title: 'Rate limit store degraded',
        description: '1 while Redis is away and the instance counts in memory.',
        unit: 'none',
        targets: [{ expr: 'ppa_rate_limit_degraded', legend: '{{instance}}' }],
      },
    ],
  },
  {
    title: 'Instances',
    panels: [
      {
        title: 'CPU',
        description: 'Cores each API process uses.',
        unit: 'none',
        targets: [{ expr: rate('ppa_process_cpu_seconds_total'), legend: '{{instance}}' }],
      },
      {
        title: 'Event-loop delay, p99',
        description: 'A process starved of CPU or blocked shows here before its answers slow down.',
        unit: 's',
        targets: [{ expr: 'ppa_nodejs_eventloop_lag_p99_seconds', legend: '{{instance}}' }],
      },
      {
        title: 'Resident memory',
        description: 'Each API process’s resident set.',
        unit: 'bytes',
        targets: [{ expr: 'ppa_process_resident_memory_bytes', legend: '{{instance}}' }],
      },
    ],
  },
];

const PANEL_HEIGHT = 8;
const COLUMNS = 24;

function panel(spec: PanelSpec, id: number, gridPos: object): object {
  const stat = spec.redFrom !== undefined;
  return {
    id,
    type: stat ? 'stat' : 'timeseries',
    title: spec.title,
    description: spec.description,
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: {
      defaults: {
        unit: spec.unit,
        ...(stat
          ? {
              thresholds: {
                mode: 'absolute',
                steps: [
                  { color: 'green', value: null },
                  { color: 'red', value: spec.redFrom },
                ],
              },
            }
          : {}),
      },
      overrides: [],
    },
    options: stat
      ? { reduceOptions: { calcs: ['lastNotNull'] }, colorMode: 'background', textMode: 'value_and_name' }
      : { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
    targets: spec.targets.map((target, index) => ({
      refId: String.fromCharCode(65 + index),
      datasource: DATASOURCE,
      expr: target.expr,
      legendFormat: target.legend,
    })),
  };
}

/** The dashboard's JSON model, rows laid out one under another, panels three to a line unless wider. */
export function dashboard(): object {
  const panels: object[] = [];
  let y = 0;
  for (const row of ROWS) {
    panels.push({
      id: panels.length + 1,
      type: 'row',
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: COLUMNS, x: 0, y },
      panels: [],
    });
    y += 1;
    let x = 0;
    for (const spec of row.panels) {
      const w = spec.width ?? COLUMNS / 3;
      if (x + w > COLUMNS) {
        x = 0;
        y += PANEL_HEIGHT;
      }
      panels.push(panel(spec, panels.length + 1, { h: PANEL_HEIGHT, w, x, y }));
      x += w;
    }
    y += PANEL_HEIGHT;
  }
  return {
    uid: DASHBOARD_UID,
    title: 'PPA Search API',
    description:
      'Generated by `npm run monitoring` (tools/monitoring/dashboard.ts): edit that, not this file.',
    tags: ['ppa-search'],
    timezone: 'browser',
    editable: true,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: { list: [] },
    annotations: { list: [] },
    panels,
  };
}
