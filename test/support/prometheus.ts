// Prometheus and promtool for the monitoring tests: found on PATH or the suite fails naming the package (no
// skipping: the rules are tested only where promtool runs), the shipped scrape config made local, and the names a
// rule or a panel may read (what the API's registry exports, and what the generated rules record).
import { spawn } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { SCRAPE_JOB } from '../../deploy/prometheus/slos.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { root } from './nginx.js';

export const RULES_DIR = join(root, 'deploy/prometheus/rules');

export const MISSING_PROMETHEUS =
  'Prometheus is not installed: apt-get install -y prometheus (it brings promtool; README, "Prerequisites")';

/** The path of `program` (prometheus, promtool) on PATH or in /usr/bin; throws naming the package otherwise. */
export function requireProgram(program: 'prometheus' | 'promtool'): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/usr/local/bin'].filter(Boolean)) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not here
    }
  }
  throw new Error(`${program}: ${MISSING_PROMETHEUS}`);
}

/** promtool with `args`, from `cwd`: its exit status and what it printed. */
export function promtool(args: string[], cwd = root): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(requireProgram('promtool'), args, { cwd });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/**
 * deploy/prometheus/prometheus.yml with its intervals and its one job's targets swapped, nothing else (rule_files
 * stays relative: put the rules in rules/ beside it). Throws when the file no longer has the one job scraping
 * api-1:9464 and api-2:9464.
 */
export function localPrometheusConfig(shipped: string, targets: string[], interval: string): string {
  const config = parse(shipped) as {
    global: Record<string, string>;
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  };
  const [job, ...others] = config.scrape_configs;
  const [targetList, ...moreLists] = job?.static_configs ?? [];
  if (!job || others.length > 0 || job.job_name !== SCRAPE_JOB || !targetList || moreLists.length > 0) {
    throw new Error(`expected one job "${SCRAPE_JOB}" with one list of targets`);
  }
  if (targetList.targets.join() !== 'api-1:9464,api-2:9464') {
    throw new Error(`expected the targets api-1:9464 and api-2:9464, found ${targetList.targets.join(', ')}`);
  }
  targetList.targets = targets;
  config.global = { ...config.global, scrape_interval: interval, evaluation_interval: interval };
  return stringify(config);
}

/** Every metric name the API's registry exports (a histogram's _bucket, _sum and _count series each). */
export async function exportedMetricNames(): Promise<Set<string>> {
  const { registry } = createMetrics({
    liveIndex: () => Promise.resolve(null),
    clusterAnswers: () => Promise.resolve(true),
  });
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    const suffixes = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] }[
      String(metric.type)
    ] ?? [''];
    for (const suffix of suffixes) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

interface RuleFileShape {
  groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[];
}

/** The rules of the committed rule files (deploy/prometheus/rules/*.yml). */
export function committedRules(): { file: string; record?: string; alert?: string; expr: string }[] {
  return readdirSync(RULES_DIR)
    .filter((file) => file.endsWith('.yml'))
    .flatMap((file) =>
      (parse(readFileSync(join(RULES_DIR, file), 'utf8')) as RuleFileShape).groups.flatMap((group) =>
        group.rules.map((rule) => ({ file, ...rule })),
      ),
    );
}

/** The series Prometheus makes itself, which a rule may read though no exporter sends them. */
export const PROMETHEUS_SERIES = new Set(['up']);
