// The shipped Prometheus config and the rules generated from the SLOs, under promtool: the config and every rule
// check clean, the unit tests in deploy/prometheus/tests/ pass, every alert has a case where it fires and one where
// it stays quiet, and the rules read only metrics the API exports. Without promtool this fails, naming the package.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { allAlerts } from '../../tools/monitoring/rules.js';
import { root } from '../support/nginx.js';
import { metricNames } from '../support/promql.js';
import {
  committedRules,
  exportedMetricNames,
  PROMETHEUS_SERIES,
  promtool,
  requireProgram,
} from '../support/prometheus.js';

const TESTS_DIR = 'deploy/prometheus/tests';
const testFiles = readdirSync(join(root, TESTS_DIR))
  .filter((file) => file.endsWith('.yml'))
  .map((file) => `${TESTS_DIR}/${file}`);

interface PromtoolTestFile {
  rule_files: string[];
  tests: { name: string; alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
}

describe('monitoring: the Prometheus rules under promtool', function () {
  this.timeout(60_000);

  before(() => {
    requireProgram('promtool');
  });

  it('checks the shipped config clean, with every generated rule file it loads', async () => {
    const { status, output } = await promtool(['check', 'config', 'deploy/prometheus/prometheus.yml']);
    expect(status, output).to.equal(0);
    const ruleFiles = readdirSync(join(root, 'deploy/prometheus/rules')).filter((file) =>
      file.endsWith('.yml'),
    );
    for (const file of ruleFiles) expect(output, file).to.include(`Checking deploy/prometheus/rules/${file}`);
    expect(output).to.not.match(/FAILED|WARNING/);
  });

  it('passes the rule unit tests of deploy/prometheus/tests/', async () => {
    expect(testFiles, 'test files').to.have.length.above(0);
    // A promtool a file, side by side: each evaluates its rules minute by minute over the cases' hours.
    const results = await Promise.all(testFiles.map((file) => promtool(['test', 'rules', file])));
    for (const [i, { status, output }] of results.entries()) {
      expect(status, `${testFiles[i]}: ${output}`).to.equal(0);
      expect(output, testFiles[i]).to.include('SUCCESS');
    }
  });

  it('has, for every alert, a case where it fires and one where it stays quiet', () => {
    const firing = new Set<string>();
    const quiet = new Set<string>();
    for (const file of testFiles) {
      const tests = (parse(readFileSync(join(root, file), 'utf8')) as PromtoolTestFile).tests;
      for (const { alert_rule_test: cases = [] } of tests) {
        for (const { alertname, exp_alerts: expected = [] } of cases) {
          (expected.length > 0 ? firing : quiet).add(alertname);
        }
      }
    }
    const alerts = allAlerts().map((alert) => alert.name);
    expect(alerts).to.have.length.above(0);
    expect(
      alerts.filter((name) => !firing.has(name)),
      'alerts never seen firing',
    ).to.deep.equal([]);
    expect(
      alerts.filter((name) => !quiet.has(name)),
      'alerts never seen quiet',
    ).to.deep.equal([]);
    // A case for an alert that no longer exists tests nothing.
    expect(
      [...firing, ...quiet].filter((name) => !alerts.includes(name)),
      'unknown alerts',
    ).to.deep.equal([]);
  });

  it('reads only metrics the API exports, the rules’ own records and Prometheus’s `up`', async () => {
    const rules = committedRules();
    const exported = await exportedMetricNames();
    const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
    const unknown = rules.flatMap((rule) =>
      metricNames(rule.expr)
        .filter((name) => !exported.has(name) && !recorded.has(name) && !PROMETHEUS_SERIES.has(name))
        .map((name) => `${rule.file}: ${rule.record ?? rule.alert}: ${name}`),
    );
    expect(unknown).to.deep.equal([]);
    // The check has teeth: the rules read the API's own metrics.
    expect(rules.some((rule) => metricNames(rule.expr).includes('ppa_http_requests_total'))).to.equal(true);
  });
});
