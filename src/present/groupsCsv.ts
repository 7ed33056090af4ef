// A roll-up as CSV (statistics?group_by=…&format=csv): the groups shown, one row a group, or one row a pair of a
// pivot (the groups of the second dimension shown under each group of the first shown); the figures as the JSON
// gives them, and the cells as the export writes them.
import type { DimensionName } from '../params/groupBy.js';
import { csvRows } from './csv.js';
import type { Group, GroupsPart, PivotGroup } from './groups.js';

export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8';

const FIGURES = [
  'ppas',
  'capacity_mw',
  'share_of_capacity',
  'annual_payment_obligation_usd',
  'guaranteed_amount_usd',
  'ppas_with_disclosed_amounts',
] as const satisfies readonly (keyof Group)[];

const figuresOf = (group: Group) => FIGURES.map((figure) => group[figure]);

export function groupsCsv(dimensions: readonly DimensionName[], part: GroupsPart): string {
  const header = [...dimensions, ...FIGURES];
  const rows =
    dimensions.length === 1
      ? part.groups.map((group) => [group.key, ...figuresOf(group)])
      : (part.groups as PivotGroup[]).flatMap((outer) =>
          outer.groups.map((inner) => [outer.key, inner.key, ...figuresOf(inner)]),
        );
  return csvRows([header, ...rows]);
}
