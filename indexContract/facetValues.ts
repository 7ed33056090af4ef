// facet_values: every facet value of a document as one keyword, "<facet>:<value>" ("technology:solar_pv",
// "country:KE", "year:2019", "risk_features:fx_indexed"). The API counts several facets that share a filter with
// one terms aggregation on this field, in one pass over the matches, instead of one aggregation per facet (each
// would visit every match again: docs/performance.md, the facets findings). Written by the indexer, read by the API.
// The facets and their fields are the dimension table's (dimensions.ts).
import { FACET_DIMENSIONS, isNumeric, type FacetName } from './dimensions.js';

export type { FacetName };

/** The keyword field of mappings/ppas.json that holds them. */
export const FACET_VALUES_FIELD = 'facet_values';

/** A faceted field's value in a document: null and absent are no value (nothing is counted). */
type FacetedValue = string | number | null | undefined | readonly string[];

/** What a document holds of the faceted fields, by field name. */
export type FacetedFields = Readonly<Record<string, FacetedValue>>;

/** The keywords of facet_values for one document, facet by facet in the table's order. */
export function facetValues(document: FacetedFields): string[] {
  const values: string[] = [];
  for (const { field, facet } of FACET_DIMENSIONS) {
    const value = document[field];
    const listed = Array.isArray(value) ? (value as readonly string[]) : value == null ? [] : [value];
    for (const one of listed) values.push(`${facet.name}:${one}`);
  }
  return values;
}

/**
 * A facet_values keyword back as its facet and value (years as numbers, as the year field gives them), or
 * undefined for a keyword of no known facet.
 */
export function parseFacetValue(keyword: string): { facet: FacetName; value: string | number } | undefined {
  const at = keyword.indexOf(':');
  if (at < 0) return undefined;
  const name = keyword.slice(0, at);
  const dimension = FACET_DIMENSIONS.find((candidate) => candidate.facet.name === name);
  if (!dimension) return undefined;
  const value = keyword.slice(at + 1);
  return { facet: dimension.facet.name, value: isNumeric(dimension) ? Number(value) : value };
}
