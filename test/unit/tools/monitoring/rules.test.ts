import { expect } from 'chai';
import { SLOS } from '../../../../deploy/prometheus/slos.js';
import { durationMs, formatDuration, scaleDuration } from '../../../../tools/monitoring/durations.js';
import {
  alertRules,
  errorBudget,
  RECORDS,
  sloRules,
  sloWindows,
} from '../../../../tools/monitoring/rules.js';

describe('monitoring: the rules generated from the SLOs', () => {
  it('records every window the burn-rate alerts read, per instance and per job, for every SLO', () => {
    expect(sloWindows()).to.deep.equal(['5m', '30m', '1h', '2h', '6h', '1d', '3d']);
    const { groups } = sloRules();
    expect(groups.map((group) => group.name)).to.deep.equal(SLOS.map((slo) => `ppa-slo-${slo.name}`));
    for (const [i, group] of groups.entries()) {
      const records = group.rules.flatMap((rule) => (rule.record ? [rule.record] : []));
      for (const window of sloWindows()) {
        expect(records, group.name).to.include.members([
          RECORDS.events(window),
          RECORDS.errors(window),
          RECORDS.ratio(window),
        ]);
      }
      expect(group.rules.every((rule) => rule.labels?.slo === SLOS[i]!.name)).to.equal(true);
      const alerts = group.rules.filter((rule) => rule.alert);
      expect(alerts.map((rule) => rule.labels?.severity)).to.deep.equal(['page', 'ticket']);
    }
  });

  it('pages at 14.4× over 1 h and 5 min or 6× over 6 h and 30 min, tickets at 3× over 1 d and 2 h or 1× over 3 d and 6 h', () => {
    const availability = sloRules().groups[0]!.rules.filter((rule) => rule.alert);
    expect(errorBudget(SLOS[0]!)).to.equal(0.001);
    const [page, ticket] = availability.map((rule) => rule.expr.replace(/\s+/g, ' '));
    expect(page).to.include('job:ppa_slo_error_ratio:rate1h{slo="availability"} > 14.4 * 0.001 and');
    expect(page).to.include('job:ppa_slo_error_ratio:rate5m{slo="availability"} > 14.4 * 0.001');
    expect(page).to.include('job:ppa_slo_error_ratio:rate6h{slo="availability"} > 6 * 0.001 and');
    expect(ticket).to.include('job:ppa_slo_error_ratio:rate3d{slo="availability"} > 1 * 0.001 and');
  });

  it('scales every window and `for:` with a time scale, keeping the names; the shipped rules keep theirs', () => {
    const shipped = sloRules().groups[0]!.rules;
    const scaled = sloRules({ timeScale: 1 / 60 }).groups[0]!.rules;
    expect(scaled.map((rule) => rule.record ?? rule.alert)).to.deep.equal(
      shipped.map((rule) => rule.record ?? rule.alert),
    );
    const ratio1h = (rules: typeof shipped) =>
      rules.find((rule) => rule.record === RECORDS.errors('1h'))!.expr;
    expect(ratio1h(shipped)).to.include('[1h]').and.not.include('[1m]');
    expect(ratio1h(scaled)).to.include('[1m]').and.not.include('[1h]');
    expect(shipped.filter((rule) => rule.alert).map((rule) => rule.for)).to.deep.equal(['2m', '15m']);
    expect(scaled.filter((rule) => rule.alert).map((rule) => rule.for)).to.deep.equal(['2s', '15s']);
    expect(alertRules({ timeScale: 1 / 60 }).groups[0]!.rules.map((rule) => rule.for)).to.include('1s');
  });

  it('reads and writes Prometheus durations', () => {
    expect(durationMs('90s')).to.equal(90_000);
    expect(formatDuration(72 * 60_000)).to.equal('72m');
    expect(formatDuration(86_400_000)).to.equal('1d');
    expect(scaleDuration('5m', 1 / 60)).to.equal('5s');
    expect(scaleDuration('5m', 1 / 600)).to.equal('500ms');
    expect(() => durationMs('1h30m')).to.throw(/one unit/);
  });
});
