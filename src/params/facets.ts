// `facets`: the breakdowns a list answer may carry in meta.facets (counted in the same search as the page).
import Type from 'typebox';
import type { FacetName } from '../../indexContract/facetValues.js';

export type { FacetName };
export const FACET_NAMES = [
  'technology',
  'tariff',
  'country',
  'year',
  'risk_features',
] as const satisfies readonly FacetName[];

/** At most this many buckets per facet. */
export const MAX_FACET_BUCKETS = 50;

export const FACETS_PARAMETER = Type.Optional(
  Type.Array(Type.Unsafe<FacetName>({ type: 'string', enum: [...FACET_NAMES] }), {
    minItems: 1,
    maxItems: FACET_NAMES.length * 2,
    description:
      `Adds meta.facets with a count per value of each named breakdown, joined by "," (${FACET_NAMES.join(', ')}); ` +
      `at most ${MAX_FACET_BUCKETS} buckets each, count descending then value ascending (year: value descending). ` +
      'technology, tariff, country and year are counted under every filter but their own (so a count is what ' +
      'choosing that value alone would give); risk_features under all filters (so a count is what adding it would give).',
  }),
);

export function toFacetNames(values: readonly string[]): FacetName[] {
  return FACET_NAMES.filter((name) => values.includes(name));
}
