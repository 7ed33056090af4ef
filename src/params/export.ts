// GET /api/v1/ppas/export: the list's filters, q and sort, the columns (fields) and the format; no paging.
import { BadRequestError } from '../http/problem.js';
import { filterProperties, parameterDocs, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';
import { fieldsProperty, ITEM_FIELDS, toItemFields, type ItemField } from './fields.js';
import { filtersAndSort, listParamsSchema } from './list.js';
import type { SortOrder } from './sortOrder.js';
import { readQueryString } from './querystring.js';
import { paramsValidator, validOnly, type ParamsSchema } from './validate.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportQuery extends SearchFilters {
  sort: SortOrder;
  format: ExportFormat;
  /** The columns (NDJSON: the item fields), slug first; url is added as the last one. */
  fields: ItemField[];
}

export const exportParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    sort: listParamsSchema.properties.sort,
    fields: {
      ...fieldsProperty,
      description: `${fieldsProperty.description} Default: every field.`,
    },
    format: {
      type: 'string',
      enum: [...EXPORT_FORMATS],
      default: 'csv',
      description:
        "csv (RFC 4180, UTF-8, header row; a cell beginning with =, +, -, @, tab or CR is prefixed with ' " +
        'against spreadsheet formulas) or ndjson (one list item per line).',
    },
  },
} satisfies ParamsSchema;

export const exportParameters = parameterDocs(exportParamsSchema.properties);

const NOT_HERE = 'is not an export parameter (an export is every match: no pages, cursor or facets)';

const validator = paramsValidator(exportParamsSchema, {
  repeatable: REPEATABLE_FILTERS,
  unknownReasons: { page: NOT_HERE, per_page: NOT_HERE, cursor: NOT_HERE, facets: NOT_HERE },
});

export function parseExportQuery(querystring: string): ExportQuery {
  const { params, problems } = validator.validate(readQueryString(querystring));
  const valid = validOnly(params, problems);
  const { filters, sort } = filtersAndSort(valid, problems);
  if (problems.length > 0) throw new BadRequestError(problems);
  return {
    ...filters,
    sort,
    format: valid.format === 'ndjson' ? 'ndjson' : 'csv',
    fields: Array.isArray(valid.fields) ? toItemFields(valid.fields) : [...ITEM_FIELDS],
  };
}
