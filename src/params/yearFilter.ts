// `year`: the financial close year, one (an integer, as in every release) or a range of them (2010..2015, 2015..,
// ..2005). Its schema says both forms, so a client generated from the OpenAPI document keeps the integer's type and
// bounds, and the range's form is a pattern beside it.
import Type from 'typebox';
import { MAX_YEAR, MIN_YEAR } from '../../indexContract/dimensions.js';
import { defineFilter } from './listFilter.js';

/** The years a financial close may have (the record schema's bounds, the dimension table's). */
export { MAX_YEAR, MIN_YEAR };

/** The years of `year`: [from, to], inclusive, an end open when absent; one year is from = to. */
export interface YearRange {
  from?: number;
  to?: number;
}

/** A year the record schema allows, 1900–2100, as the range pattern writes it. */
const YEAR_TEXT = '(?:19\\d\\d|20\\d\\d|2100)';
const RANGE_PATTERN = `^(?:${YEAR_TEXT}\\.\\.(?:${YEAR_TEXT})?|\\.\\.${YEAR_TEXT})$`;
const RANGE = /^(\d{4})?\.\.(\d{4})?$/;

/** The range's ends; the pattern has already bounded them. A start after the end is a problem of year. */
function readYear(value: number | string): YearRange | { problem: string } {
  if (typeof value === 'number') return { from: value, to: value };
  const [, from, to] = RANGE.exec(value) ?? [];
  const range: YearRange = {
    ...(from === undefined ? {} : { from: Number(from) }),
    ...(to === undefined ? {} : { to: Number(to) }),
  };
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    return { problem: `the range starts after it ends (${range.from} > ${range.to})` };
  }
  return range;
}

export const YEAR_FILTER = defineFilter({
  name: 'year',
  schema: Type.Union(
    [
      Type.Integer({ minimum: MIN_YEAR, maximum: MAX_YEAR, description: 'a year' }),
      Type.String({
        pattern: RANGE_PATTERN,
        description: `a range of years, ${MIN_YEAR}–${MAX_YEAR}: 2010..2015 (inclusive), 2015.. or ..2005 (one end open)`,
      }),
    ],
    {
      examples: [2015, '2010..2015', '2015..', '..2005'],
      description:
        `Financial close year equals it (${MIN_YEAR}–${MAX_YEAR}), or is in a range of years: 2010..2015 ` +
        '(inclusive), 2015.. or ..2005 (one end open). A PPA without a year is in no range. A range that starts ' +
        'after it ends is 400.',
    },
  ),
  read: (value: number | string, problems) => {
    const years = readYear(value);
    if (!('problem' in years)) return years;
    problems.push({ name: 'year', reason: years.problem });
    return undefined;
  },
  clauses: ({ from, to }: YearRange) => [
    from !== undefined && from === to
      ? { term: { financial_close_year: from } }
      : {
          range: {
            financial_close_year: {
              ...(from === undefined ? {} : { gte: from }),
              ...(to === undefined ? {} : { lte: to }),
            },
          },
        },
  ],
  bindsCursor: true,
  words: ({ from, to }: YearRange) => [
    from !== undefined && from === to ? `year ${from}` : `years ${from ?? ''}..${to ?? ''}`,
  ],
  doc: {
    type: `integer ${MIN_YEAR}–${MAX_YEAR}, or a range \`2010..2015\`, \`2015..\`, \`..2005\``,
    meaning:
      'financial close year equals it, or lies in the range (inclusive; a PPA without a year is in no range)',
  },
});
