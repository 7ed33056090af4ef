// The floors of issues 9, 16, 19, 32 and 69, asserted by test/integration/relevance.test.ts and checked by `npm run relevance`.
import type { ClassFigures } from './rankingMetrics.js';
import { QUERY_CLASSES, type QueryClass } from './queries.js';

export interface Target {
  queryClass: QueryClass;
  metric:
    | 'success1'
    | 'success3'
    | 'success10'
    | 'recall10'
    | 'highlighted'
    | 'medianTotal'
    | 'nonEmpty'
    | 'offered'
    | 'followed3';
  /** success1/success3: at least this; medianTotal/nonEmpty: at most this. */
  bound: number;
}

const atLeast = (
  queryClasses: QueryClass[],
  metric: Exclude<Target['metric'], 'medianTotal' | 'nonEmpty'>,
  bound: number,
): Target[] => queryClasses.map((queryClass) => ({ queryClass, metric, bound }));

/** The classes past the forgiving tolerance (issue 69): found, if at all, through "did you mean". */
export const PAST_TOLERANCE_CLASSES: QueryClass[] = [
  'three_edits',
  'first_letter_and_typo',
  'unknown_word',
  'joined_beyond',
];

export const TARGETS: readonly Target[] = [
  ...atLeast(['exact', 'accents_stripped', 'capitals', 'padded'], 'success1', 0.995),
  ...atLeast(['typo'], 'success1', 0.97),
  ...atLeast(['typo'], 'success3', 0.99),
  ...atLeast(['typing_prefix', 'word_place'], 'success3', 0.97),
  // A reference code, exact or lowercased, is always the first hit.
  ...atLeast(['code_exact', 'code_lower'], 'success1', 1),
  { queryClass: 'gibberish', metric: 'nonEmpty', bound: 0 },
  { queryClass: 'exact', metric: 'medianTotal', bound: 3 },
  // What people really type (issue 19): the name among the first three, two typos first.
  ...atLeast(
    [
      'swapped_words',
      'word_left_out',
      'transposed_letters',
      'developer_name',
      'two_typos',
      'joined_words',
      'split_word',
      'numeral_other_way',
      'abbreviation_other_way',
      'punctuation_dropped',
    ],
    'success3',
    0.99,
  ),
  ...atLeast(['two_typos'], 'success1', 0.97),
  // Technology and country words, and first-letter typos (issue 32): the PPA among the first three.
  ...atLeast(['name_technology', 'name_place_technology', 'first_letter_typo'], 'success3', 0.97),
  ...atLeast(['developer_name'], 'recall10', 0.99),
  // Suggestions as you type (issue 16): the name among the ten suggested, and first nine times in ten.
  ...atLeast(['suggest_typing', 'suggest_typo'], 'success10', 0.99),
  ...atLeast(['suggest_typing', 'suggest_typo'], 'success1', 0.9),
  // Past the forgiving tolerance (issue 69): of the queries that find nothing, 95 in 100 get a "did you mean", and
  // following it puts the PPA among the first three nine times in ten; kept when a miss was made cheap (issue 72).
  ...atLeast(PAST_TOLERANCE_CLASSES, 'offered', 0.95),
  ...atLeast(PAST_TOLERANCE_CLASSES, 'followed3', 0.9),
  // Highlights (issue 46): where the expected PPA is returned, its highlights are well formed and mark what the
  // query named (tools/relevance/highlightCheck.ts).
  ...atLeast(
    QUERY_CLASSES.filter((queryClass) => queryClass !== 'gibberish'),
    'highlighted',
    0.98,
  ),
];

export function isUpperBound(target: Target): boolean {
  return target.metric === 'medianTotal' || target.metric === 'nonEmpty';
}

export interface TargetCheck {
  target: Target;
  actual: number;
  met: boolean;
}

export function checkTargets(figures: readonly ClassFigures[]): TargetCheck[] {
  return TARGETS.map((target) => {
    const row = figures.find((figure) => figure.queryClass === target.queryClass);
    const actual = row ? row[target.metric] : Number.NaN;
    const met = row !== undefined && (isUpperBound(target) ? actual <= target.bound : actual >= target.bound);
    return { target, actual, met };
  });
}

export function describeTarget({ queryClass, metric, bound }: Target): string {
  const label = {
    success1: 'success@1',
    success3: 'success@3',
    success10: 'success@10',
    recall10: 'recall@10',
    highlighted: 'highlights checked',
    medianTotal: 'median total',
    nonEmpty: 'queries with results',
    offered: '"did you mean" offered (of those that found nothing)',
    followed3: '"did you mean" followed, success@3 (of those that found nothing)',
  }[metric];
  return `${queryClass} ${label} ${metric === 'medianTotal' || metric === 'nonEmpty' ? '≤' : '≥'} ${bound}`;
}
