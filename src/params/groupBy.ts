// The roll-ups' parameters (GET /api/v1/ppas/statistics?group_by=…): the dimensions a selection can be grouped by,
// each with the index field its groups are read from, and how the groups are sorted, cut and answered.
import Type from 'typebox';
import { DIMENSIONS, GROUP_NAMES, type Dimension, type GroupName } from '../../indexContract/dimensions.js';
import { withDefault } from './declare.js';

/** A dimension: the keyword field its values are read from; `names`: spellings merged by group key. */
export type GroupDimension = Dimension;

/** Every dimension by its name in group_by, in the order the document lists them (the dimension table's). */
export const GROUP_DIMENSIONS = Object.freeze(
  Object.fromEntries(Object.values(DIMENSIONS).map((dimension) => [dimension.group, dimension])),
) as Readonly<Record<GroupName, Dimension>>;

export type DimensionName = GroupName;
export const DIMENSION_NAMES = GROUP_NAMES;

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
