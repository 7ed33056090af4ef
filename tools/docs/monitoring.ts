// The SLOs and every alert as markdown tables in docs/operations.md ("Monitoring"), generated from their
// declarations (deploy/prometheus/slos.ts, alerts.ts) through the rules the generator makes of them.
import { SLO_PERIOD, SLOS } from '../../deploy/prometheus/slos.js';
import { allAlerts } from '../monitoring/rules.js';
import { markdownTable, type GeneratedSection } from './section.js';

export const SLOS_SECTION: GeneratedSection = {
  name: 'slos',
  source: 'deploy/prometheus/slos.ts',
  documents: ['docs/operations.md'],
  text: () =>
    markdownTable(
      ['SLO', `Objective (${SLO_PERIOD})`, 'Good means', 'Why'],
      SLOS.map((slo) => [
        `\`${slo.name}\``,
        `${Number((slo.objective * 100).toPrecision(6))} %`,
        slo.measures,
        slo.why,
      ]),
    ),
};

/** A summary's Prometheus template, in words. */
const untemplated = (text: string) => text.replaceAll('{{ $labels.instance }}', 'an instance');

export const ALERTS_SECTION: GeneratedSection = {
  name: 'alerts',
  source: 'deploy/prometheus/slos.ts and alerts.ts',
  documents: ['docs/operations.md'],
  text: () =>
    markdownTable(
      ['Alert', 'Severity', 'What it means', 'What to do'],
      allAlerts().map((alert) => [
        `\`${alert.name}\``,
        alert.severity,
        untemplated(alert.summary),
        alert.runbook,
      ]),
    ),
};
