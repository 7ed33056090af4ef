// The committed Grafana dashboard: every panel's expression is PromQL that promtool parses (offline: one recording
// rule per expression, under `promtool check rules`), and reads only metrics the API's registry exports or the
// generated rules record; and it shows what an operator opens it for.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SLOS } from '../../deploy/prometheus/slos.js';
import { DASHBOARD_FILE } from '../../tools/monitoring/outputs.js';
import { root } from '../support/nginx.js';
import { metricNames } from '../support/promql.js';
import { committedRules, exportedMetricNames, promtool, requireProgram } from '../support/prometheus.js';

interface Panel {
  title: string;
  panels?: Panel[];
  targets?: { expr?: string }[];
}

/** Every panel's expressions, rows' nested panels included, with the panel's title. */
function expressions(panels: Panel[]): { title: string; expr: string }[] {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? []).flatMap((target) =>
      target.expr ? [{ title: panel.title, expr: target.expr }] : [],
    ),
    ...expressions(panel.panels ?? []),
  ]);
}

describe('monitoring: the Grafana dashboard’s expressions', function () {
  this.timeout(60_000);
  const dashboard = JSON.parse(readFileSync(join(root, DASHBOARD_FILE), 'utf8')) as { panels: Panel[] };
  const exprs = expressions(dashboard.panels);

  before(() => {
    requireProgram('promtool');
  });

  it('parse as PromQL (promtool check rules, one recording rule per expression)', async () => {
    expect(exprs.length, 'expressions').to.be.above(20);
    const dir = mkdtempSync(join(tmpdir(), 'ppa-dashboard-'));
    try {
      const rules = exprs.map(({ expr }, i) => ({ record: `dashboard:expression:${i}`, expr }));
      writeFileSync(join(dir, 'dashboard.yml'), stringify({ groups: [{ name: 'dashboard', rules }] }));
      const { status, output } = await promtool(['check', 'rules', join(dir, 'dashboard.yml')]);
      expect(status, output).to.equal(0);
      expect(output).to.include(`SUCCESS: ${exprs.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('read only metrics the API exports and series the generated rules record', async () => {
    const exported = await exportedMetricNames();
    const recorded = new Set(committedRules().flatMap((rule) => (rule.record ? [rule.record] : [])));
    const unknown = exprs.flatMap(({ title, expr }) =>
      metricNames(expr)
        .filter((name) => !exported.has(name) && !recorded.has(name))
        .map((name) => `${title}: ${name}`),
    );
    expect(unknown).to.deep.equal([]);
  });

  it('show every SLO’s burn rate, traffic by route, admission and refusals, Elasticsearch, the cache and the lags', () => {
    const read = new Set(exprs.flatMap(({ expr }) => metricNames(expr)));
    expect([...read]).to.include.members([
      'job:ppa_slo_error_ratio:rate1h',
      'job:ppa_slo_error_ratio:rate3d',
      'ppa_http_requests_total',
      'ppa_http_request_duration_seconds_bucket',
      'ppa_admission_limit',
      'ppa_overload_refusals_total',
      'ppa_rate_limit_refusals_total',
      'ppa_search_duration_seconds_bucket',
      'ppa_elasticsearch_up',
      'ppa_response_cache_hits_total',
      'ppa_change_lag_seconds',
      'ppa_sync_lag_seconds',
    ]);
    for (const slo of SLOS) {
      expect(
        exprs.some(({ expr }) => expr.includes(`slo="${slo.name}"`)),
        `a panel for ${slo.name}`,
      ).to.equal(true);
    }
  });
});
