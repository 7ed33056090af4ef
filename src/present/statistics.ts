// Statistics aggregations → the statistics body. Pure: rounding, orderings and the empty-subset rules live here.
import type { estypes } from '@elastic/elasticsearch';
import { parseIndexBuiltAt } from '../../indexContract/indexName.js';
import { utcTimestamp } from './ppa.js';
import { GROUPS_PROPERTIES } from './groups.js';
import { roundMw, roundShare, roundUsd } from './rounding.js';
import { DIMENSIONS, MAX_YEAR, MIN_YEAR } from '../../indexContract/dimensions.js';
import { FLAG_CODES, type FlagCode } from '../../indexContract/flags.js';
import { byDimension, WITHOUT_YEAR_KEY, type StatisticsAggregations } from '../queries/statisticsSearch.js';
import {
  count,
  dimensionValue,
  fraction,
  megawatts,
  nullable,
  optionalInteger,
  record,
  timestamp,
  token,
  Type,
  type Static,
  type TProperties,
  type TSchema,
} from '../wire/bodySchema.js';

const capacityShare = record({
  ppas: count('PPAs with the feature.'),
  capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
  share_of_capacity: fraction('Their share of the total capacity, rounded to 0.0001.'),
});
export type CapacityShare = Static<typeof capacityShare>;

const capacityBucket = <K extends string, V extends TSchema, E extends TProperties = Record<never, TSchema>>(
  key: K,
  keySchema: V,
  extra?: E,
) =>
  record({
    ...({ [key]: keySchema } as { [P in K]: V }),
    ppas: Type.Integer({ minimum: 1, description: 'PPAs in the bucket (never 0).' }),
    capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
    ...((extra ?? {}) as E),
  });

/** The statistics body (component Statistics of the document). */
export const StatisticsSchema = record({
  data: record({
    totals: record({ ppas: count('Matching PPAs.'), capacity_mw: megawatts('Their capacity, MW (0.1).') }),
    capacity_by_technology: Type.Array(
      capacityBucket(DIMENSIONS.technology.group, dimensionValue(DIMENSIONS.technology), {
        share: fraction('Share of the total capacity (0.0001).'),
      }),
      { description: 'Largest capacity first.' },
    ),
    capacity_by_year: Type.Array(
      capacityBucket(DIMENSIONS.year.group, optionalInteger({ minimum: MIN_YEAR, maximum: MAX_YEAR })),
      {
        description: 'By financial close year, ascending; PPAs without a year last, under year null.',
      },
    ),
    fiscal_exposure: record({
      government_guarantee: capacityShare,
      take_or_pay: capacityShare,
      annual_payment_obligation_usd: count('Sum of the disclosed annual payment obligations, whole USD.'),
      guaranteed_amount_usd: count('Sum of the disclosed guaranteed amounts, whole USD.'),
      ppas_with_disclosed_amounts: count('PPAs with an annual payment obligation or a guaranteed amount.'),
      [byDimension('riskFeature')]: Type.Array(
        capacityBucket(DIMENSIONS.riskFeature.group, dimensionValue(DIMENSIONS.riskFeature)),
        {
          description: 'Largest capacity first.',
        },
      ),
    }),
    tariff_mix: Type.Array(
      capacityBucket(DIMENSIONS.tariff.group, token('Tariff structure.'), {
        share: fraction('Share of the PPAs (0.0001).'),
      }),
      { description: 'Most common first.' },
    ),
    flags: Type.Array(
      record({
        code: Type.Unsafe<FlagCode>({ type: 'string', enum: [...FLAG_CODES], description: 'Red flag code.' }),
        raised: count('PPAs of the selection that raise it.'),
        computable: count('PPAs of the selection on which it could be decided (raised or not).'),
        coverage: fraction('computable ÷ PPAs of the selection, rounded to 0.001; 0 for an empty selection.'),
        capacity_mw: megawatts('Capacity of the PPAs that raise it, MW rounded to 0.1.'),
        guaranteed_amount_usd: count('Sum of their disclosed guaranteed amounts, whole USD.'),
      }),
      {
        description:
          "The red flags (GET /api/v1/flags), one entry per code in the methodology table's order: a flag rare " +
          'only because it is rarely decidable shows a low coverage.',
      },
    ),
    ...GROUPS_PROPERTIES,
  }),
  meta: record({
    generated_at: nullable(
      timestamp(
        'When the live index was built (null only while it is empty): the body changes only on reindex.',
      ),
    ),
  }),
});
export type StatisticsBody = Static<typeof StatisticsSchema>;

/** part / whole, 0 when the whole is 0 (an empty subset has shares of 0, never NaN). */
function share(part: number, whole: number): number {
  return whole > 0 ? roundShare(part / whole) : 0;
}

interface Bucket {
  key: string | number;
  doc_count: number;
  capacity_mw: { value: number | null };
}

function complete<TBucket>(
  name: string,
  terms: { buckets: TBucket[]; sum_other_doc_count?: number },
): TBucket[] {
  // A bucket left out would make every number below wrong; TERMS_SIZE is far above any real value set.
  if ((terms.sum_other_doc_count ?? 0) !== 0) {
    throw new Error(`statistics: ${name} has more values than the aggregation asked for`);
  }
  return terms.buckets;
}

/** Largest rounded capacity first, ties by key, so the order is exactly what a client can check. */
function byCapacity<T extends { capacity_mw: number }>(key: (item: T) => string) {
  return (a: T, b: T) => b.capacity_mw - a.capacity_mw || compareKeys(key(a), key(b));
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function presentStatistics(
  response: estypes.SearchResponse<unknown, StatisticsAggregations>,
): StatisticsBody {
  const aggs = response.aggregations;
  if (!aggs) throw new Error('statistics: the response has no aggregations');
  const total = response.hits.total;
  const ppas = typeof total === 'number' ? total : (total?.value ?? 0);
  const capacity = aggs.capacity_mw.value ?? 0;
  const mw = (bucket: { capacity_mw: { value: number | null } }) => bucket.capacity_mw.value ?? 0;
  const withCapacity = (bucket: Bucket) => ({ ppas: bucket.doc_count, capacity_mw: roundMw(mw(bucket)) });
  const riskFeatures = complete(byDimension('riskFeature'), aggs[byDimension('riskFeature')]);
  const exposure = (feature: string): CapacityShare => {
    const bucket = riskFeatures.find((candidate) => candidate.key === feature);
    const featured = bucket ? mw(bucket) : 0;
    return {
      ppas: bucket?.doc_count ?? 0,
      capacity_mw: roundMw(featured),
      share_of_capacity: share(featured, capacity),
    };
  };

  const yearBuckets = complete(byDimension('year'), aggs[byDimension('year')]).filter(
    (bucket) => bucket.doc_count > 0,
  );
  const withoutYear = yearBuckets.find((bucket) => Number(bucket.key) === WITHOUT_YEAR_KEY);
  const years = yearBuckets
    .filter((bucket) => bucket !== withoutYear)
    .map((bucket) => ({ year: Number(bucket.key), ...withCapacity(bucket) }))
    .sort((a, b) => a.year - b.year);
  const capacityByYear: StatisticsBody['data']['capacity_by_year'] = withoutYear
    ? [...years, { year: null, ...withCapacity(withoutYear) }]
    : years;

  return {
    data: {
      totals: { ppas, capacity_mw: roundMw(capacity) },
      capacity_by_technology: complete(byDimension('technology'), aggs[byDimension('technology')])
        .filter((bucket) => bucket.doc_count > 0)
        .map((bucket) => ({
          technology: String(bucket.key),
          ...withCapacity(bucket),
          share: share(mw(bucket), capacity),
        }))
        .sort(byCapacity((item) => item.technology)),
      capacity_by_year: capacityByYear,
      fiscal_exposure: {
        government_guarantee: exposure('government_guarantee'),
        take_or_pay: exposure('take_or_pay'),
        annual_payment_obligation_usd: roundUsd(aggs.annual_payment_obligation_usd.value ?? 0),
        guaranteed_amount_usd: roundUsd(aggs.guaranteed_amount_usd.value ?? 0),
        ppas_with_disclosed_amounts: aggs.with_disclosed_amounts.doc_count,
        [byDimension('riskFeature')]: riskFeatures
          .filter((bucket) => bucket.doc_count > 0)
          .map((bucket) => ({ [DIMENSIONS.riskFeature.group]: String(bucket.key), ...withCapacity(bucket) }))
          .sort(byCapacity((item) => item[DIMENSIONS.riskFeature.group])),
      },
      tariff_mix: complete(byDimension('tariff'), aggs[byDimension('tariff')])
        .filter((bucket) => bucket.doc_count > 0)
        .map((bucket) => ({
          tariff: String(bucket.key),
          ...withCapacity(bucket),
          share: share(bucket.doc_count, ppas),
        }))
        .sort((a, b) => b.ppas - a.ppas || compareKeys(a.tariff, b.tariff)),
      flags: flagTopic(aggs, ppas),
    },
    meta: { generated_at: generatedAt(aggs) },
  };
}

/** The red flags' topic: every code in the table's order, 0s where no PPA of the selection raises or decides it. */
function flagTopic(aggs: StatisticsAggregations, ppas: number): StatisticsBody['data']['flags'] {
  const raised = complete('flags_raised', aggs.flags_raised);
  const undecidable = complete('flags_undecidable', aggs.flags_undecidable);
  const evaluated = ppas - aggs.flags_unevaluated.doc_count;
  return FLAG_CODES.map((code) => {
    const bucket = raised.find((candidate) => candidate.key === code);
    const computable = evaluated - (undecidable.find((candidate) => candidate.key === code)?.doc_count ?? 0);
    return {
      code,
      raised: bucket?.doc_count ?? 0,
      computable,
      coverage: ppas > 0 ? roundCoverage(computable / ppas) : 0,
      capacity_mw: roundMw(bucket?.capacity_mw.value ?? 0),
      guaranteed_amount_usd: roundUsd(bucket?.guaranteed_amount_usd.value ?? 0),
    };
  });
}

/** A coverage to 3 decimals. */
const roundCoverage = (value: number): number => Math.round(value * 1000) / 1000;

/** The live index's build time, read from its name; null only when the index holds no document at all. */
function generatedAt(aggs: StatisticsAggregations): string | null {
  const name = aggs.live_index.buckets[0]?.key;
  const builtAt = name === undefined ? null : parseIndexBuiltAt(name);
  return builtAt ? utcTimestamp(builtAt.toISOString()) : null;
}
