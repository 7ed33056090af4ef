// facet_values: every facet value of a document as one keyword, "<facet>:<value>" ("technology:solar_pv",
// "country:KE", "year:2019", "risk_features:fx_indexed"). The API counts several facets that share a filter with
// one terms aggregation on this field, in one pass over the matches, instead of one aggregation per facet (each
// would visit every match again: docs/performance.md, the facets findings). Written by the indexer, read by the API.

/** The keyword field of mappings/ppas.json that holds them. */
export const FACET_VALUES_FIELD = 'facet_values';

/** The facets, in the order the API names them, and the document field each counts. */
export const FACET_SOURCE_FIELDS = {
  technology: 'technology',
  tariff: 'tariff',
  country: 'country_code',
  year: 'financial_close_year',
  risk_features: 'risk_features',
} as const;
export type FacetName = keyof typeof FACET_SOURCE_FIELDS;

/** What a document holds of the faceted fields (null and absent: no value, so nothing is counted). */
export interface FacetedFields {
  technology: string;
  tariff: string;
  country_code: string | null;
  financial_close_year: number | null;
  risk_features: readonly string[];
}

/** The keywords of facet_values for one document. */
export function facetValues(document: FacetedFields): string[] {
  const values = [`technology:${document.technology}`, `tariff:${document.tariff}`];
  if (document.country_code !== null) values.push(`country:${document.country_code}`);
  if (document.financial_close_year !== null) values.push(`year:${document.financial_close_year}`);
  for (const feature of document.risk_features) values.push(`risk_features:${feature}`);
  return values;
}

/**
 * A facet_values keyword back as its facet and value (years as numbers, as the year field gives them), or
 * undefined for a keyword of no known facet.
 */
export function parseFacetValue(keyword: string): { facet: FacetName; value: string | number } | undefined {
  const at = keyword.indexOf(':');
  const facet = keyword.slice(0, at);
  if (at < 0 || !Object.hasOwn(FACET_SOURCE_FIELDS, facet)) return undefined;
  const value = keyword.slice(at + 1);
  return { facet: facet as FacetName, value: facet === 'year' ? Number(value) : value };
}
