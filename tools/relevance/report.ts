// The figures as a console table and as the markdown report bench/results/relevance-<date>.md.
import type { ClassFigures, QueryResult } from './rankingMetrics.js';
import { describeTarget, PAST_TOLERANCE_CLASSES, type TargetCheck } from './targets.js';
import { operatorTable, type OperatorFigures } from './operatorSuite.js';

const HEADERS = [
  'class',
  'queries',
  'success@1',
  'success@3',
  'success@10',
  'recall@10',
  'MRR',
  'median total',
  'p90 total',
  'max total',
  'median ms',
  'took p50',
  'took p90',
  'highlighted',
];

function row(figure: ClassFigures): string[] {
  const gibberish = figure.queryClass === 'gibberish';
  return [
    figure.queryClass,
    String(figure.queries),
    figure.success1.toFixed(3),
    figure.success3.toFixed(3),
    figure.success10.toFixed(3),
    gibberish ? '–' : figure.recall10.toFixed(3),
    gibberish ? '–' : figure.mrr.toFixed(3),
    String(figure.medianTotal),
    String(figure.p90Total),
    String(figure.maxTotal),
    figure.medianMs.toFixed(1),
    String(figure.medianTook),
    String(figure.p90Took),
    gibberish ? '–' : figure.highlighted.toFixed(3),
  ];
}

export function consoleTable(figures: readonly ClassFigures[]): string {
  const rows = [HEADERS, ...figures.map(row)];
  const widths = HEADERS.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  return rows
    .map((cells) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '))
    .join('\n');
}

export function markdownTable(figures: readonly ClassFigures[]): string {
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...figures.map((figure) => `| ${row(figure).join(' | ')} |`),
  ].join('\n');
}

/**
 * "Did you mean" (issue 69), per class past the forgiving tolerance and for gibberish: of the queries that found
 * nothing as typed, the share offered a rewrite, and the share whose rewrite, followed, puts the PPA in the first 3.
 */
export function didYouMeanTable(figures: readonly ClassFigures[]): string {
  const rows = figures
    .filter(
      (figure) => PAST_TOLERANCE_CLASSES.includes(figure.queryClass) || figure.queryClass === 'gibberish',
    )
    .map((figure) => {
      const gibberish = figure.queryClass === 'gibberish';
      return `| ${figure.queryClass} | ${figure.queries} | ${figure.empty.toFixed(3)} | ${figure.offered.toFixed(3)} | ${gibberish ? '–' : figure.followed3.toFixed(3)} |`;
    });
  return [
    '| class | queries | found nothing as typed | offered | followed, success@3 |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/** A few offers per past-tolerance class: what was typed, what was offered, where following it led. */
export function offerExamples(results: readonly QueryResult[], perClass = 3): string[] {
  const lines: string[] = [];
  for (const queryClass of PAST_TOLERANCE_CLASSES) {
    for (const result of results.filter((r) => r.query.queryClass === queryClass).slice(0, perClass)) {
      const offer =
        result.didYouMean === undefined ? 'no offer' : `did you mean ${JSON.stringify(result.didYouMean)}`;
      lines.push(
        `${queryClass}: q=${JSON.stringify(result.query.q)} → total ${result.total}, ${offer}` +
          (result.didYouMean === undefined ? '' : ` → rank ${result.followedRank ?? 'none'}`),
      );
    }
  }
  return lines;
}

export function targetLines(checks: readonly TargetCheck[]): string[] {
  return checks.map(
    ({ target, actual, met }) =>
      `${met ? 'met   ' : 'MISSED'} ${describeTarget(target)} (actual ${Number.isInteger(actual) ? actual : actual.toFixed(3)})`,
  );
}

/** A few misses per class (rank > 1, or any result for gibberish), to see what goes wrong. */
export function missExamples(results: readonly QueryResult[], perClass = 5): string[] {
  const lines: string[] = [];
  const seen = new Map<string, number>();
  for (const result of results) {
    const { query } = result;
    const missed = query.queryClass === 'gibberish' ? result.total > 0 : result.rank !== 1;
    if (!missed) continue;
    const count = seen.get(query.queryClass) ?? 0;
    if (count >= perClass) continue;
    seen.set(query.queryClass, count + 1);
    lines.push(
      `${query.queryClass}: q=${JSON.stringify(query.q)}${query.note ? ` (${query.note})` : ''} expected ` +
        `${query.expected ?? 'nothing'} → rank ${result.rank ?? 'none'}, total ${result.total}, top ${result.top.slice(0, 3).join(', ')}`,
    );
  }
  return lines;
}

export interface ReportInput {
  date: string;
  figures: readonly ClassFigures[];
  checks: readonly TargetCheck[];
  results: readonly QueryResult[];
  /** The operator classes of precise search (operatorSuite.ts). */
  operators?: readonly OperatorFigures[];
  corpus: { seed: number; count: number; indexed: number; live: number; indexSeconds: number };
  suite: { seed: number; perClass: number; querySeconds: number };
  method: string;
  /** The paired cost line (--paired), when measured. */
  cost?: string;
}

export function markdownReport(input: ReportInput): string {
  const misses = missExamples(input.results);
  return [
    `# Relevance of \`q\` — ${input.date}`,
    '',
    'Generated by `npm run relevance` (bench/relevance.ts); the same suite runs in `npm test`',
    '(test/integration/relevance.test.ts), which asserts the floors below.',
    '',
    `Corpus: ${input.corpus.count} generated records (seed ${input.corpus.seed}), ${input.corpus.indexed} published ` +
      `and indexed, ${input.corpus.live} live (published and active); indexed in ${input.corpus.indexSeconds.toFixed(1)} s. ` +
      `Queries: up to ${input.suite.perClass} per class (seed ${input.suite.seed}), run in ${input.suite.querySeconds.toFixed(1)} s.`,
    '',
    '## Figures',
    '',
    markdownTable(input.figures),
    '',
    ...(input.cost ? [`${input.cost}.`, ''] : []),
    '## Did you mean (past the forgiving tolerance; of the queries that found nothing as typed)',
    '',
    didYouMeanTable(input.figures),
    '',
    ...offerExamples(input.results).map((line) => `- ${line}`),
    '',
    ...(input.operators
      ? [
          '## Operator classes (precise search: sets against an oracle, floors 1.00)',
          '',
          operatorTable(input.operators),
          '',
        ]
      : []),
    '## Targets',
    '',
    ...targetLines(input.checks).map((line) => `    ${line}`),
    '',
    '## Misses (first few per class)',
    '',
    ...(misses.length > 0 ? misses.map((line) => `- ${line}`) : ['None.']),
    '',
    input.method.trim(),
    '',
  ].join('\n');
}
