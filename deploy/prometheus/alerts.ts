// The alerts that are not about an error budget: states an operator must act on whatever the SLOs say, declared
// once. `npm run monitoring` writes them to rules/alerts.yml, and docs/operations.md's table ("Monitoring").
import { SCRAPE_JOB } from './slos.js';

export interface PlainAlert {
  name: string;
  severity: 'page' | 'ticket';
  expr: string;
  for: string;
  /** One line: what is wrong (Prometheus templates such as {{ $labels.instance }} allowed). */
  summary: string;
  /** One line: what to do. */
  runbook: string;
}

/** The share of the list's searches with q that found nothing, over `range` (ending `offset` ago). */
const zeroResultShare = (range: string, offset = '') => {
  const rate = (selector: string) =>
    `sum by (job) (rate(ppa_text_searches_total${selector}[${range}]${offset}))`;
  return `(${rate('{outcome="nothing"}')} / ${rate('')})`;
};

export const ALERTS: readonly PlainAlert[] = [
  {
    name: 'PpaElasticsearchUnreachable',
    severity: 'page',
    expr: 'ppa_elasticsearch_up == 0',
    for: '1m',
    summary: 'Elasticsearch does not answer {{ $labels.instance }}: its searches answer 503',
    runbook:
      'Is the cluster up (`_cluster/health`), and reachable from that instance (`ES_URL`, credentials, network)? Nothing to restart on the API: it recovers by itself (docs/operations.md, "When Elasticsearch is down or slow").',
  },
  {
    name: 'PpaApiDown',
    severity: 'page',
    // The SLOs are computed from what the replicas count: a replica that is gone counts nothing.
    expr: `up{job="${SCRAPE_JOB}"} == 0`,
    for: '5m',
    summary: 'Prometheus cannot scrape {{ $labels.instance }}: the replica is down or unreachable',
    runbook:
      'Is the replica running (`docker compose ps`), and does its `/health/live` answer? Its log’s last lines say why it stopped; the others carry its traffic meanwhile.',
  },
  {
    name: 'PpaSyncGuardHolding',
    severity: 'ticket',
    expr: 'max by (job) (ppa_sync_guard_holding) == 1',
    for: '5m',
    summary:
      'Sync holds back a run that would remove more than --max-removed of the live PPAs: no change is applied',
    runbook:
      '`/health/ready`’s `sync.detail` says how many; repair the source, or when the removals are meant run `ppa-indexer sync --max-removed 100%` once (docs/operations.md, "Guards against mass removal").',
  },
  {
    name: 'PpaReindexRecommended',
    severity: 'ticket',
    expr: 'max by (job) (ppa_reindex_recommended) == 1',
    for: '1h',
    summary: 'The live index was built by an older release: `q` misses what a reindex would add',
    runbook:
      'Run `ppa-indexer reindex` once the indexer is upgraded too (docs/operations.md, "Upgrading"); `/health/ready`’s `index.missing_fields` names what is missing.',
  },
  {
    name: 'PpaSheddingSustained',
    severity: 'ticket',
    expr: 'ppa_admission_shedding == 1',
    for: '10m',
    summary: '{{ $labels.instance }} has refused searches for overload for 10 minutes',
    runbook:
      'Elasticsearch is too small for the traffic, or this instance is starved of CPU: compare the instances’ admission limits and Elasticsearch latency on the dashboard (docs/operations.md, "Overload").',
  },
  {
    name: 'PpaZeroResultSearchesHigh',
    severity: 'ticket',
    // Far above its usual level: over twice the share of the day before, and above a fifth of the searches,
    // with enough searches in the hour for the share to mean something.
    expr:
      `${zeroResultShare('1h')} > 2 * ${zeroResultShare('1d', ' offset 1h')}` +
      ` and ${zeroResultShare('1h')} > 0.2` +
      ` and sum by (job) (increase(ppa_text_searches_total[1h])) > 100`,
    for: '30m',
    summary:
      'An unusual share of searches finds nothing: {{ $value | humanizePercentage }} of the last hour’s searches with q',
    runbook:
      '`ppa-indexer searches --zero-results --since 1d` lists what people fail to find: a reindex that lost records (`ppa-indexer status`, `reindex --plan`), a spelling or a country the data lacks, or a broken client sending odd q.',
  },
];
