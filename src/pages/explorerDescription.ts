// What the explorer (public/) needs to know of the API, described from the declarations themselves: the dimensions
// (the dimension table: facets, roll-ups, labels, value schemas), the sorts and the bounds of the parameters it
// writes. Served as a versioned asset (src/pages/assets.ts), so the page never carries a copy that could go stale;
// a unit test fails when public/ writes one of these by hand.
import {
  DIMENSIONS,
  isCountryCode,
  isNumeric,
  MAX_YEAR,
  MIN_YEAR,
  type Dimension,
} from '../../indexContract/dimensions.js';
import { FLAG_INDICATORS } from '../../indexContract/flags.js';
import type { AnyListFilter } from '../params/listFilter.js';
import {
  LIST_FILTERS,
  MAX_CAPACITY_MW,
  MAX_DEVELOPER_LENGTH,
  MAX_LIST_TOKENS,
  MAX_Q_LENGTH,
  MAX_RISK_FEATURES,
  MAX_TOKEN_LENGTH,
} from '../params/filters.js';
import {
  DEFAULT_GROUP_LIMIT,
  GROUP_PARAMETERS,
  GROUP_SORTS,
  MAX_GROUP_DIMENSIONS,
  MAX_GROUP_LIMIT,
} from '../params/groupBy.js';
import { MAX_RESULT_WINDOW } from '../params/list.js';
import { SORT_ORDERS, type SortOrder } from '../params/sortOrder.js';
import { GROUP_SORT_FIGURES } from '../present/groups.js';
import { MAX_SUGGEST_LIMIT, MAX_SUGGEST_Q_LENGTH } from '../params/suggest.js';

/** One dimension as the explorer uses it. */
export interface DescribedDimension {
  /** Its roll-up name (group_by), and its facet's name and query parameters when the list counts it. */
  group: string;
  facet: string | null;
  /** The list parameter that filters it, and the names merged into it (`risk_features[]`, `risk_features`). */
  parameters: string[];
  label: string;
  /** Its facet counts under every filter: the values chosen must all hold (AND), not one of them (OR). */
  all: boolean;
  /** Values are numbers (the year): the explorer offers one value at a time. */
  numeric: boolean;
  /** Values are ISO 3166-1 alpha-2 codes (shown by the country's name). */
  countryCodes: boolean;
  /** Values are open tokens, shown as words. */
  tokens: boolean;
  /** A PPA may have several values. */
  several: boolean;
  /** A value in the answers (JSON Schema). */
  schema: Dimension['schema'];
}

/** A list filter's parameter and the names merged into it. */
function parametersOf(filterKey: string): string[] {
  const filter = (LIST_FILTERS as Record<string, AnyListFilter>)[filterKey];
  if (!filter) throw new Error(`the dimension table names no list filter ${filterKey}`);
  return [filter.name, ...(filter.aliases ?? [])];
}

function describeDimension(dimension: Dimension): DescribedDimension {
  const facet = dimension.facet?.name ?? null;
  return {
    group: dimension.group,
    facet,
    parameters: dimension.facet ? parametersOf(dimension.facet.filter) : [],
    label: dimension.label,
    all: dimension.facet?.disjunctive === false,
    numeric: isNumeric(dimension),
    countryCodes: isCountryCode(dimension),
    tokens: dimension.tokens,
    several: dimension.several === true,
    schema: dimension.schema,
  };
}

/** The explorer's description of the API, as JSON. */
export function explorerDescription() {
  return {
    dimensions: Object.values(DIMENSIONS as Record<string, Dimension>).map(describeDimension),
    // The red flags' codes and short labels, in the order `flags` lists them (a result's labels, the detail's evidence).
    flags: FLAG_INDICATORS.map(({ code, title }) => ({ code, title })),
    // relevance is the list's default with q (the page's "best match"), never written in a link.
    sorts: SORT_ORDERS.filter((sort) => sort !== 'relevance'),
    // The list's order with q when none is chosen (the page's "best match").
    textSort: 'relevance' satisfies SortOrder,
    group: {
      // Each order and the figure it orders by (null: by key).
      sorts: GROUP_SORTS.map((name) => ({ name, figure: GROUP_SORT_FIGURES[name] })),
      defaultSort: GROUP_PARAMETERS.group_sort.default,
      defaultLimit: DEFAULT_GROUP_LIMIT,
      maxLimit: MAX_GROUP_LIMIT,
      maxDimensions: MAX_GROUP_DIMENSIONS,
    },
    bounds: {
      resultWindow: MAX_RESULT_WINDOW,
      maxQLength: MAX_Q_LENGTH,
      maxSuggestQLength: MAX_SUGGEST_Q_LENGTH,
      maxSuggestLimit: MAX_SUGGEST_LIMIT,
      maxTokenLength: MAX_TOKEN_LENGTH,
      maxListTokens: MAX_LIST_TOKENS,
      maxRiskFeatures: MAX_RISK_FEATURES,
      maxDeveloperLength: MAX_DEVELOPER_LENGTH,
      maxCapacityMw: MAX_CAPACITY_MW,
      minYear: MIN_YEAR,
      maxYear: MAX_YEAR,
    },
  };
}

export type ExplorerDescription = ReturnType<typeof explorerDescription>;
