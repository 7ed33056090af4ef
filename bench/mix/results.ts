// The mix suite's results file: the Markdown report (bench/perf/tables.ts) and the figures as JSON beside it, from
// which `--render` writes the Markdown again.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../perf/apiProcess.js';
import type { EsTarget } from '../perf/rawElasticsearch.js';
import { machineInfo } from '../perf/machine.js';
import { markdownReport, type RunContext, type RunSettings } from '../perf/tables.js';
import type { CountFigures } from '../perf/summary.js';
import { log } from './common.js';

export interface SavedRun {
  context: RunContext;
  figures: CountFigures[];
}

export interface ResultsSetup {
  node: { version: string; heap: string };
  es: EsTarget;
  settings: RunSettings;
  totalSeconds: number;
  /** --out: the results file (default bench/results/<date>.md). */
  out: string | undefined;
}

/** The figures of every count, as Markdown and as JSON beside it. */
export async function writeResults(figures: CountFigures[], setup: ResultsSetup): Promise<void> {
  const { node, es, settings, totalSeconds } = setup;
  const date = new Date().toISOString().slice(0, 10);
  const context: RunContext = {
    date,
    machine: machineInfo(),
    esVersion: node.version,
    esHeap: node.heap,
    esUrl: es.url,
    settings,
    totalSeconds,
  };
  // A core-split run never overwrites (or reads as) the day's shared-core results.
  const out =
    setup.out ?? join(REPO_ROOT, 'bench/results', `${date}${settings.cpuSplit ? '-cpu-split' : ''}.md`);
  await mkdir(join(out, '..'), { recursive: true });
  // The figures as JSON beside the Markdown: `--render` rebuilds the file (after a change to the report).
  const saved: SavedRun = { context, figures };
  await writeFile(out.replace(/(\.md)?$/, '.json'), `${JSON.stringify(saved, null, 1)}\n`);
  await writeReport(out, saved);
}

async function writeReport(out: string, saved: SavedRun): Promise<void> {
  await writeFile(out, markdownReport(saved.figures, saved.context));
  log(`wrote ${out}`);
}

/** `--render <file.json>`: the Markdown again from a saved run. */
export async function render(jsonPath: string): Promise<void> {
  const saved = JSON.parse(await readFile(jsonPath, 'utf8')) as SavedRun;
  await writeReport(jsonPath.replace(/\.json$/, '.md'), saved);
}
