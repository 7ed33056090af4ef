// GET /api/v1/ppas/export: the list's filters, q and sort, the columns (fields) and the format; no paging.
import Type from 'typebox';
import { declareQuery, withDefault } from './declare.js';
import { fieldsParameter, ITEM_FIELDS, toItemFields, type ItemField } from './itemFields.js';
import { FILTER_PARAMETERS, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';
import { filtersAndSort, SORT_PARAMETER } from './list.js';
import type { SortOrder } from './sortOrder.js';

export const EXPORT_FORMATS = ['csv', 'ndjson', 'ocds'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportQuery extends SearchFilters {
  sort: SortOrder;
  format: ExportFormat;
  /** The columns (NDJSON: the item fields), slug first; url is added as the last one. OCDS: every field. */
  fields: ItemField[];
}

/** GET /api/v1/ppas/export's parameters, and what the export reads from them. */
export const exportQuery = declareQuery(
  {
    ...FILTER_PARAMETERS,
    sort: SORT_PARAMETER,
    fields: fieldsParameter(' Default: every field.'),
    format: withDefault(
      Type.Unsafe<ExportFormat>({
        type: 'string',
        enum: [...EXPORT_FORMATS],
        description:
          "csv (RFC 4180, UTF-8, header row; a cell beginning with =, +, -, @, tab or CR is prefixed with ' " +
          'against spreadsheet formulas), ndjson (one list item per line) or ocds (one compiled OCDS release per ' +
          "line, as GET /api/v1/ppas/ocds gives them: JSON Lines, OCDS's bulk form; fields does not apply).",
      }),
      'csv',
    ),
  },
  (params, problems): ExportQuery => {
    const { filters, sort } = filtersAndSort(params, problems);
    if (params.format === 'ocds' && params.fields) {
      problems.push({
        name: 'fields',
        reason: 'chooses the columns of csv and ndjson: an OCDS release is whole',
      });
    }
    const fields = params.fields ? toItemFields(params.fields) : [...ITEM_FIELDS];
    return { ...filters, sort, format: params.format, fields };
  },
  { repeatable: REPEATABLE_FILTERS },
);

export function parseExportQuery(querystring: string): ExportQuery {
  return exportQuery.parse(querystring);
}
