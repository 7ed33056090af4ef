// The dimensions a PPA is counted by, one declaration each: the index field its values are read from, what a value
// is (its JSON Schema in the answers), its label, its roll-up name (`group_by`) and, for those the list counts, its
// facet (`facets`): the order of its buckets and the list filter it leaves out. The facets (and facet_values), the
// roll-ups, the statistics' buckets, the answers' schemas, the OpenAPI document, docs/api.md's table and the
// explorer's description are derived from this table, so a dimension is added here, in one place.
//
// The public names are kept where they differ: a PPA's features are the facet `risk_features` and the roll-up
// `risk_feature`; the table's key (`riskFeature`) is the one internal spelling.
import { GROUP_FIELDS } from './groupFields.js';

/** The years a financial close may have (the record schema's bounds). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

/** A dimension's values in the answers, as JSON Schema (src/ makes them TypeBox schemas). */
const TOKEN = { type: 'string', pattern: '^[a-z0-9_]+$' } as const;
const COUNTRY = { type: 'string', pattern: '^[A-Z]{2}$' } as const;
const YEAR = { type: 'integer', minimum: MIN_YEAR, maximum: MAX_YEAR } as const;
const NAME = { type: 'string' } as const;

export type DimensionSchema = typeof TOKEN | typeof COUNTRY | typeof YEAR | typeof NAME;

/** What a facet counts, beside the dimension's field and values. */
export interface FacetDeclaration {
  /** Its name in `facets` and `meta.facets`. */
  name: string;
  /** Its buckets' order: count descending, then value ascending; or the value descending (years). */
  order: 'count_desc' | 'value_desc';
  /** The list filter on the dimension's values: its key in src/params/filters.ts's LIST_FILTERS. */
  filter: string;
  /**
   * It leaves that filter's clauses out when it counts (disjunctive: the values chosen are alternatives, OR); false:
   * it counts under every filter (the values chosen must all hold, AND).
   */
  disjunctive: boolean;
}

export interface Dimension {
  /** The keyword field of the index its values are read from (mappings/ppas.json). */
  field: string;
  /** A value in the answers (a facet's `value`, a statistics bucket's key). */
  schema: DimensionSchema;
  /** Its description in the answers' schemas. */
  valueDescription: string;
  /** What people call it (the explorer's labels, the docs' table). */
  label: string;
  /** Its name in `group_by` and `groups_meta.dimension`. */
  group: string;
  /** Values are names as spelled: one roll-up group per group key (counterparties.ts), its commonest spelling. */
  names: boolean;
  /** Values are open tokens the explorer shows as words ("solar_pv" → "Solar pv"). */
  tokens: boolean;
  /** A PPA may have no value (no facet bucket; the roll-up's null group). */
  optional: boolean;
  /** A PPA may have several values (it counts in the bucket or group of each). */
  several?: true;
  facet?: FacetDeclaration;
}

/** A name dimension of the roll-ups, read from its group field. */
const nameDimension = <const Group extends string>(
  field: string,
  label: string,
  group: Group,
  tokens = false,
) =>
  ({
    field,
    schema: NAME,
    valueDescription: `${label}.`,
    label,
    group,
    names: true,
    tokens,
    optional: true,
  }) as const;

/** Every dimension, in the order the answers, the document and the explorer list them. */
export const DIMENSIONS = {
  technology: {
    field: 'technology',
    schema: TOKEN,
    valueDescription: 'Technology.',
    label: 'Technology',
    group: 'technology',
    names: false,
    tokens: true,
    optional: false,
    facet: { name: 'technology', order: 'count_desc', filter: 'technology', disjunctive: true },
  },
  tariff: {
    field: 'tariff',
    schema: TOKEN,
    valueDescription: 'Tariff.',
    label: 'Tariff',
    group: 'tariff',
    names: false,
    tokens: true,
    optional: false,
    facet: { name: 'tariff', order: 'count_desc', filter: 'tariff', disjunctive: true },
  },
  country: {
    field: 'country_code',
    schema: COUNTRY,
    valueDescription: 'ISO 3166-1 alpha-2.',
    label: 'Country',
    group: 'country',
    names: false,
    tokens: false,
    optional: true,
    facet: { name: 'country', order: 'count_desc', filter: 'country', disjunctive: true },
  },
  year: {
    field: 'financial_close_year',
    schema: YEAR,
    valueDescription: 'Financial close year.',
    label: 'Financial close year',
    group: 'year',
    names: false,
    tokens: false,
    optional: true,
    facet: { name: 'year', order: 'value_desc', filter: 'year', disjunctive: true },
  },
  riskFeature: {
    field: 'risk_features',
    schema: TOKEN,
    valueDescription: 'Risk feature.',
    label: 'Risk feature',
    group: 'risk_feature',
    names: false,
    tokens: true,
    optional: true,
    several: true,
    facet: { name: 'risk_features', order: 'count_desc', filter: 'riskFeatures', disjunctive: false },
  },
  flag: {
    field: 'flags',
    schema: TOKEN,
    valueDescription: 'Red flag code (GET /api/v1/flags says what each means).',
    label: 'Red flag',
    group: 'flag',
    names: false,
    tokens: true,
    optional: true,
    several: true,
    facet: { name: 'flags', order: 'count_desc', filter: 'flags', disjunctive: true },
  },
  developer: { ...nameDimension(GROUP_FIELDS.developer, 'Developer', 'developer'), several: true },
  offtaker: nameDimension(GROUP_FIELDS.offtaker, 'Offtaker', 'offtaker'),
  offtakerType: nameDimension(GROUP_FIELDS.offtaker_type, 'Offtaker type', 'offtaker_type', true),
  procuringEntity: nameDimension(GROUP_FIELDS.procuring_entity, 'Procuring entity', 'procuring_entity'),
  procurementMethod: nameDimension(
    GROUP_FIELDS.procurement_method,
    'Procurement method',
    'procurement_method',
    true,
  ),
  currency: nameDimension(GROUP_FIELDS.currency, 'Currency', 'currency'),
} as const satisfies Record<string, Dimension>;

export type DimensionKey = keyof typeof DIMENSIONS;
type Declared = (typeof DIMENSIONS)[DimensionKey];

/** Every dimension's key, in the table's order. */
export const DIMENSION_KEYS = Object.freeze(Object.keys(DIMENSIONS) as DimensionKey[]);

/** A roll-up dimension's public name (`group_by`). */
export type GroupName = Declared['group'];
/** A facet's public name (`facets`). */
export type FacetName = Extract<Declared, { facet: FacetDeclaration }>['facet']['name'];
/** The facets that leave a filter of their own out when they count. */
export type FacetableFilter = Extract<
  Extract<Declared, { facet: FacetDeclaration }>['facet'],
  { disjunctive: true }
>['name'];

/** The dimensions a facet counts, with their facet, in the table's order. */
export const FACET_DIMENSIONS: readonly (Dimension & { facet: FacetDeclaration & { name: FacetName } })[] =
  Object.freeze(
    Object.values(DIMENSIONS as Record<DimensionKey, Dimension>).flatMap((dimension) =>
      dimension.facet ? [dimension as Dimension & { facet: FacetDeclaration & { name: FacetName } }] : [],
    ),
  );

/** The facet names, in the table's order. */
export const FACET_NAMES: readonly FacetName[] = Object.freeze(
  FACET_DIMENSIONS.map((dimension) => dimension.facet.name),
);

/** The roll-up names, in the table's order. */
export const GROUP_NAMES: readonly GroupName[] = Object.freeze(
  Object.values(DIMENSIONS).map((dimension) => dimension.group),
);

/** A facet's dimension. */
export function facetDimension(name: FacetName): Dimension & { facet: FacetDeclaration } {
  const found = FACET_DIMENSIONS.find((dimension) => dimension.facet.name === name);
  if (!found) throw new Error(`no facet named ${name}`);
  return found;
}

/** A roll-up dimension by its public name. */
export function groupDimension(name: GroupName): Dimension {
  const found = Object.values(DIMENSIONS as Record<DimensionKey, Dimension>).find(
    (dimension) => dimension.group === name,
  );
  if (!found) throw new Error(`no dimension named ${name}`);
  return found;
}

/** The facet that leaves a list filter (its key in LIST_FILTERS) out when it counts, if any. */
export function facetLeavingOut(filterKey: string): FacetableFilter | undefined {
  const found = FACET_DIMENSIONS.find(({ facet }) => facet.disjunctive && facet.filter === filterKey);
  return found?.facet.name as FacetableFilter | undefined;
}

/** The values are numbers (the year): read back from a keyword as a number, grouped with a numeric missing key. */
export const isNumeric = (dimension: Dimension): boolean => dimension.schema.type === 'integer';

/** The values are ISO 3166-1 alpha-2 codes. */
export const isCountryCode = (dimension: Dimension): boolean => dimension.schema === COUNTRY;
