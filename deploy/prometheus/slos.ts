// The API's service-level objectives, declared once, with how fast a burning error budget alerts. `npm run
// monitoring` (tools/monitoring/) generates from them the recording and alerting rules in rules/slos.yml, the
// dashboard's SLO panels and docs/operations.md's tables ("Monitoring").
//
// TypeScript rather than YAML: the generator, the docs and the tests import it, the compiler checks every field,
// and each objective keeps its reason beside it.

/** What share of something was bad, in PromQL over the API's own metrics (summed per `job` and `instance`). */
export type Sli =
  | {
      /** Request-based, with the failures counted: the share of `events` that are `bad`. */
      kind: 'requests';
      /** A counter of every event judged. */
      events: string;
      /** A counter of the events that failed (no series yet: none failed). */
      bad: string;
      /** Events counted among `events` and `bad` that this SLO does not judge (overload refusals: a 503). */
      leftOut?: string;
    }
  | {
      /** Request-based, with the successes counted: the share of `events` that are not `good`. */
      kind: 'requests';
      events: string;
      /** A counter of the events that met the objective (a histogram bucket). */
      good: string;
      /** Events counted among `events` and `good` that this SLO does not judge (overload refusals: fast). */
      leftOut?: string;
    }
  | {
      /** Time-based: the share of time an instance was bad; every instance weighs the same. */
      kind: 'time';
      /** 1 while the instance is bad, else 0. */
      bad: string;
    };

export interface Slo {
  /** The `slo` label of its series and alerts. */
  name: string;
  /** Its alerts are Ppa<title>FastBurn (page) and Ppa<title>SlowBurn (ticket). */
  title: string;
  /** The share that must be good over SLO_PERIOD; the error budget is the rest. */
  objective: number;
  measures: string;
  why: string;
  /** What to look at first when its budget burns. */
  runbook: string;
  sli: Sli;
}

/** The period an objective holds over: the budget a burn rate of 1 spends exactly. */
export const SLO_PERIOD = '30d';

/** The Prometheus job that scrapes the replicas (deploy/prometheus/prometheus.yml). */
export const SCRAPE_JOB = 'ppa-api';

/** Answers the SLOs judge: not /health/*, whose 503 while Elasticsearch is away is readiness working. */
const ANSWERS = 'route!~"/health/.*"';

const LATENCY_RUNBOOK =
  'Elasticsearch latency on the dashboard (`ppa_search_duration_seconds`): a slow or busy cluster; the API instances’ CPU and event-loop delay: an instance starved of CPU.';

export const SLOS: readonly Slo[] = [
  {
    name: 'availability',
    title: 'Availability',
    objective: 0.999,
    measures:
      'answers that are not server errors (5xx); overload refusals are left out (the next SLO), as is `/health/*`',
    why: 'A 5xx is an answer a client did not get: Elasticsearch away, a search past its deadline, a bug. 99.9 % leaves 43 minutes a month: the loss of a node or a rolling restart fits in it, an outage of the cluster does not.',
    runbook:
      'The dashboard says which instances and routes answer 5xx; `ppa_elasticsearch_up` and `/health/ready` whether Elasticsearch is away (docs/operations.md, "When Elasticsearch is down or slow"); the log lines at level 50 name the errors.',
    sli: {
      kind: 'requests',
      events: `ppa_http_requests_total{${ANSWERS}}`,
      bad: `ppa_http_requests_total{${ANSWERS},status=~"5.."}`,
      leftOut: 'ppa_overload_refusals_total',
    },
  },
  {
    name: 'overload',
    title: 'Overload',
    objective: 0.99,
    measures: 'requests not refused for overload (503 `overloaded`)',
    why: 'Under a surge an instance answers what it can in time and refuses the rest at once: the design working, and the client retries. Refusals that last mean the fleet is too small for its traffic; 1 % leaves room for surges.',
    runbook:
      'Sustained refusals mean Elasticsearch is too small for the traffic: add nodes or replicas (docs/operations.md, "Overload"); the dashboard shows the admission limit falling where Elasticsearch slows down.',
    sli: {
      kind: 'requests',
      events: `ppa_http_requests_total{${ANSWERS}}`,
      bad: 'ppa_overload_refusals_total',
    },
  },
  {
    name: 'list_latency',
    title: 'ListLatency',
    objective: 0.99,
    measures: 'list answers (`GET /api/v1/ppas`) within 1 s: p99 ≤ 1 s; overload refusals left out',
    why: '1 s is the time to an answer admission aims at (`ADMISSION_TARGET_MS`): a search waits for a slot only while its answer can still come within it. Slower answers mean Elasticsearch itself is slower than admission can shield.',
    runbook: LATENCY_RUNBOOK,
    sli: {
      kind: 'requests',
      events: 'ppa_http_request_duration_seconds_count{route="/api/v1/ppas"}',
      good: 'ppa_http_request_duration_seconds_bucket{route="/api/v1/ppas",le="1"}',
      leftOut: 'ppa_overload_refusals_total{route="/api/v1/ppas"}',
    },
  },
  {
    name: 'detail_latency',
    title: 'DetailLatency',
    objective: 0.99,
    measures:
      'detail answers (`GET /api/v1/ppas/{slug}`) within 0.5 s: p99 ≤ 0.5 s; overload refusals left out',
    why: 'A detail is one lookup by slug: half the list’s time is ample, and a slower detail means the cluster or the instance is struggling before the list shows it.',
    runbook: LATENCY_RUNBOOK,
    sli: {
      kind: 'requests',
      events: 'ppa_http_request_duration_seconds_count{route="/api/v1/ppas/:slug"}',
      good: 'ppa_http_request_duration_seconds_bucket{route="/api/v1/ppas/:slug",le="0.5"}',
      leftOut: 'ppa_overload_refusals_total{route="/api/v1/ppas/:slug"}',
    },
  },
  {
    name: 'freshness',
    title: 'Freshness',
    objective: 0.99,
    measures:
      'time during which sync’s last complete run read PostgreSQL at most 30 s ago (`ppa_sync_lag_seconds` ≤ 30)',
    why: 'With sync keeping up a change is served within 10 s; past 30 s of lag sync is stuck, down or holding back a mass removal, and every change waits. The change lag (`ppa_change_lag_seconds`) is no SLI: it also grows while nothing changes.',
    runbook:
      'Is `indexer-sync` running, and what does its log say? `/health/ready`’s `sync` member says when it holds back a mass removal (docs/operations.md, "Guards against mass removal").',
    sli: { kind: 'time', bad: 'ppa_sync_lag_seconds > bool 30' },
  },
  {
    name: 'rate_limit_store',
    title: 'RateLimitStore',
    objective: 0.99,
    measures:
      'time during which an instance counts the rate limit in the shared Redis (`ppa_rate_limit_degraded` 0)',
    why: 'While Redis is away each instance counts in memory: the API keeps answering, but a client gets its quota once per instance. 1 % is 7 hours a month: a Redis restart does not page, an outage of hours does.',
    runbook:
      'Is Redis up and reachable from the instances? Their log says `rate limit: Redis unavailable` (docs/operations.md, "When Redis is down or slow"); nothing needs restoring once it answers.',
    sli: { kind: 'time', bad: 'ppa_rate_limit_degraded' },
  },
];

/** One arm of a burn-rate alert: the error ratio above factor × budget over both windows. */
export interface BurnWindow {
  long: string;
  short: string;
  factor: number;
}

export interface BurnRateAlert {
  severity: 'page' | 'ticket';
  /** The alert's name: Ppa<SLO title><suffix>. */
  suffix: string;
  for: string;
  /** Either arm fires the alert. */
  windows: readonly BurnWindow[];
}

/**
 * Multiwindow, multi-burn-rate alerts (Google's SRE workbook, "Alerting on SLOs"): the long window says the budget
 * really burns that fast, the short one that it still does, so the alert ends soon after the burn does. Against a
 * 30-day budget, a page spends 2 % of it in an hour or 5 % in six, a ticket 10 % in a day or in three. `for:` only
 * rides out a single odd evaluation.
 */
export const BURN_RATE_ALERTS: readonly BurnRateAlert[] = [
  {
    severity: 'page',
    suffix: 'FastBurn',
    for: '2m',
    windows: [
      { long: '1h', short: '5m', factor: 14.4 },
      { long: '6h', short: '30m', factor: 6 },
    ],
  },
  {
    severity: 'ticket',
    suffix: 'SlowBurn',
    for: '15m',
    windows: [
      { long: '1d', short: '2h', factor: 3 },
      { long: '3d', short: '6h', factor: 1 },
    ],
  },
];
