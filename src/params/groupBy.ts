// The roll-ups' parameters (GET /api/v1/ppas/statistics?group_by=…): the dimensions a selection can be grouped by,
// each with the index field its groups are read from, and how the groups are sorted, cut and answered.
import Type from 'typebox';
import { GROUP_FIELDS } from '../../indexContract/groupFields.js';
import { withDefault } from './declare.js';

/** A dimension: the keyword field its values are read from; `names`: spellings merged by group key. */
export interface GroupDimension {
  field: string;
  /** Values are names as spelled: one group per group key, shown in its most common spelling. */
  names: boolean;
  /** The values are numbers (the year). */
  numeric?: true;
}

/** Every dimension, in the order the document lists them. */
export const GROUP_DIMENSIONS = {
  technology: { field: 'technology', names: false },
  tariff: { field: 'tariff', names: false },
  country: { field: 'country_code', names: false },
  year: { field: 'financial_close_year', names: false, numeric: true },
  risk_feature: { field: 'risk_features', names: false },
  developer: { field: GROUP_FIELDS.developer, names: true },
  offtaker: { field: GROUP_FIELDS.offtaker, names: true },
  offtaker_type: { field: GROUP_FIELDS.offtaker_type, names: true },
  procuring_entity: { field: GROUP_FIELDS.procuring_entity, names: true },
  procurement_method: { field: GROUP_FIELDS.procurement_method, names: true },
  currency: { field: GROUP_FIELDS.currency, names: true },
} as const satisfies Record<string, GroupDimension>;

export type DimensionName = keyof typeof GROUP_DIMENSIONS;
export const DIMENSION_NAMES = Object.keys(GROUP_DIMENSIONS) as DimensionName[];

export const GROUP_SORTS = [
  'capacity_desc',
  'ppas_desc',
  'annual_payment_desc',
  'guaranteed_desc',
  'key_asc',
] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];
export const STATISTICS_FORMATS = ['json', 'csv'] as const;
export type StatisticsFormat = (typeof STATISTICS_FORMATS)[number];

export const DEFAULT_GROUP_LIMIT = 20;
export const MAX_GROUP_LIMIT = 200;
/** group_by takes one dimension, or two for a pivot. */
export const MAX_GROUP_DIMENSIONS = 2;

export const GROUP_PARAMETERS = {
  group_by: Type.Optional(
    Type.Array(Type.Unsafe<DimensionName>({ type: 'string', enum: [...DIMENSION_NAMES] }), {
      minItems: 1,
      maxItems: MAX_GROUP_DIMENSIONS,
      description:
        'Adds data.groups: the matching PPAs grouped by this dimension, or by two joined by "," (a pivot: each ' +
        'group carries the groups of the second). developer counts each member of a consortium (the parts of the ' +
        'developer separated by ";", or by "/" unless a single letter stands on both sides: "A/S" stays whole; a ' +
        'trailing share in parentheses dropped); names group case- and accent-insensitively and show their most ' +
        'common spelling. PPAs without a value form one group with key null; a PPA counts in the group of each of ' +
        'its risk features and consortium members. Exact, whatever the number of groups.',
    }),
  ),
  group_sort: withDefault(
    Type.Unsafe<GroupSort>({
      type: 'string',
      enum: [...GROUP_SORTS],
      description:
        'Order of the groups (with group_by): largest capacity, most PPAs, largest annual payment obligation, largest ' +
        'guaranteed amount, or key ascending (null last); ties by key.',
    }),
    'capacity_desc',
  ),
  group_limit: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: MAX_GROUP_LIMIT,
      description: `The first groups shown (with group_by), 1 to ${MAX_GROUP_LIMIT}; groups_meta.other sums the rest.`,
    }),
    DEFAULT_GROUP_LIMIT,
  ),
  format: withDefault(
    Type.Unsafe<StatisticsFormat>({
      type: 'string',
      enum: [...STATISTICS_FORMATS],
      description:
        'json (the statistics body) or csv (with group_by: the groups as CSV, one row a group or a pair of a ' +
        "pivot; RFC 4180, UTF-8, header row, empty cell for null, a cell beginning with =, +, -, @, tab or CR prefixed with ').",
    }),
    'json',
  ),
};

/** What a roll-up asks for. */
export interface GroupQuery {
  /** One dimension, or two (a pivot). */
  dimensions: DimensionName[];
  sort: GroupSort;
  limit: number;
}
