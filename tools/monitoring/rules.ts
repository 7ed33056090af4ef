// Prometheus rules generated from the declarations in deploy/prometheus/: for each SLO its recording rules (per
// instance, then per job, over every window the alerts read) and its two burn-rate alerts; and the plain alerts.
// Pure: outputs.ts writes the files.
import { ALERTS, type PlainAlert } from '../../deploy/prometheus/alerts.js';
import {
  BURN_RATE_ALERTS,
  SLO_PERIOD,
  SLOS,
  type BurnRateAlert,
  type Slo,
} from '../../deploy/prometheus/slos.js';
import { durationMs, scaleDuration } from './durations.js';

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}

export interface RuleOptions {
  /** Every window and `for:` times this: the Prometheus test's rules, never the shipped ones (1). */
  timeScale?: number;
}

/** The recording rules' names. A window keeps its nominal name (`rate1h`) when the time is scaled. */
export const RECORDS = {
  /** Time-based SLOs: 1 while the instance is bad. */
  bad: 'instance:ppa_slo_bad:max',
  /** Per instance: events judged a second (time-based: 1, each instance weighing the same). */
  events: (window: string) => `instance:ppa_slo_events:rate${window}`,
  /** Per instance: events that failed a second (time-based: the share of the window it was bad). */
  errors: (window: string) => `instance:ppa_slo_errors:rate${window}`,
  /** Per job: the share of events that failed over the window; the alerts and the dashboard read it. */
  ratio: (window: string) => `job:ppa_slo_error_ratio:rate${window}`,
} as const;

/** Every window the burn-rate alerts read, shortest first. */
export function sloWindows(alerts: readonly BurnRateAlert[] = BURN_RATE_ALERTS): string[] {
  const windows = new Set(alerts.flatMap((alert) => alert.windows.flatMap((w) => [w.long, w.short])));
  return [...windows].sort((a, b) => durationMs(a) - durationMs(b));
}

/** 1 − objective, without the float's noise (0.999 → 0.001). */
export function errorBudget(slo: Slo): number {
  return Number((1 - slo.objective).toPrecision(6));
}

const BY_INSTANCE = 'job, instance';
const rated = (selector: string, range: string) => `sum by (${BY_INSTANCE}) (rate(${selector}[${range}]))`;
/** A counter appears at its first increment: until then, 0 for every instance that has events. */
const ratedOrZero = (selector: string, events: string, range: string) =>
  `(${rated(selector, range)} or 0 * ${rated(events, range)})`;

/** The per-instance events and errors of one SLO over one window, `range` being the window as evaluated. */
function instanceExprs(slo: Slo, range: string): { events: string; errors: string } {
  const { sli } = slo;
  if (sli.kind === 'time') {
    const bad = `${RECORDS.bad}{slo="${slo.name}"}[${range}]`;
    return { events: `clamp_max(count_over_time(${bad}), 1)`, errors: `avg_over_time(${bad})` };
  }
  // Two counters read at one scrape can still rate a hair apart: never below 0.
  const minus = (a: string, b: string) => `clamp_min(\n  ${a}\n  -\n  ${b},\n  0\n)`;
  const leftOut = sli.leftOut && ratedOrZero(sli.leftOut, sli.events, range);
  const events = leftOut ? minus(rated(sli.events, range), leftOut) : rated(sli.events, range);
  let errors: string;
  if ('good' in sli) {
    // A left-out event is in both the events and the good ones: it cancels.
    errors = minus(rated(sli.events, range), rated(sli.good, range));
  } else {
    const bad = ratedOrZero(sli.bad, sli.events, range);
    errors = leftOut ? minus(bad, leftOut) : bad;
  }
  return { events, errors };
}

const percent = (share: number) => `${Number((share * 100).toPrecision(6))} %`;

function burnAlert(slo: Slo, alert: BurnRateAlert, scale: number): Rule {
  const budget = errorBudget(slo);
  const selector = `{slo="${slo.name}"}`;
  const arms = alert.windows.map(
    (w) =>
      `(\n  ${RECORDS.ratio(w.long)}${selector} > ${w.factor} * ${budget}\nand\n  ${RECORDS.ratio(w.short)}${selector} > ${w.factor} * ${budget}\n)`,
  );
  const described = alert.windows.map((w) => `${w.factor}× over ${w.long} and ${w.short}`).join(', or ');
  return {
    alert: `Ppa${slo.title}${alert.suffix}`,
    expr: arms.join('\nor\n'),
    for: scaleDuration(alert.for, scale),
    labels: { severity: alert.severity, slo: slo.name },
    annotations: {
      summary: `${slo.name} (${percent(slo.objective)} over ${SLO_PERIOD}): the error budget burns at ${described}`,
      runbook: slo.runbook,
    },
  };
}

/** One group per SLO: its recording rules in the order they feed each other, then its alerts. */
export function sloRules(options: RuleOptions = {}, slos: readonly Slo[] = SLOS): RuleFile {
  const scale = options.timeScale ?? 1;
  const groups = slos.map((slo) => {
    const labels = { slo: slo.name };
    const rules: Rule[] = [];
    if (slo.sli.kind === 'time') {
      rules.push({ record: RECORDS.bad, expr: `max by (${BY_INSTANCE}) (${slo.sli.bad})`, labels });
    }
    for (const window of sloWindows()) {
      const { events, errors } = instanceExprs(slo, scaleDuration(window, scale));
      rules.push({ record: RECORDS.events(window), expr: events, labels });
      rules.push({ record: RECORDS.errors(window), expr: errors, labels });
    }
    for (const window of sloWindows()) {
      const of = (name: string) => `sum by (job, slo) (${name}{slo="${slo.name}"})`;
      rules.push({
        record: RECORDS.ratio(window),
        expr: `${of(RECORDS.errors(window))}\n/\n${of(RECORDS.events(window))}`,
        labels,
      });
    }
    rules.push(...BURN_RATE_ALERTS.map((alert) => burnAlert(slo, alert, scale)));
    return { name: `ppa-slo-${slo.name}`, rules };
  });
  return { groups };
}

export function alertRules(options: RuleOptions = {}, alerts: readonly PlainAlert[] = ALERTS): RuleFile {
  const scale = options.timeScale ?? 1;
  return {
    groups: [
      {
        name: 'ppa-alerts',
        rules: alerts.map((alert) => ({
          alert: alert.name,
          expr: alert.expr,
          for: scaleDuration(alert.for, scale),
          labels: { severity: alert.severity },
          annotations: { summary: alert.summary, runbook: alert.runbook },
        })),
      },
    ],
  };
}

/** Every alert the rules define, burn-rate and plain: name, severity and what to do. */
export function allAlerts(): { name: string; severity: string; summary: string; runbook: string }[] {
  const files = [sloRules(), alertRules()];
  return files.flatMap((file) =>
    file.groups.flatMap((group) =>
      group.rules
        .filter((rule) => rule.alert)
        .map((rule) => ({
          name: rule.alert!,
          severity: rule.labels?.severity ?? '',
          summary: rule.annotations?.summary ?? '',
          runbook: rule.annotations?.runbook ?? '',
        })),
    ),
  );
}
