// GET /api/v1/ppas: the list parameters, their schema (also served in the OpenAPI document) and the parser.
import { BadRequestError } from '../http/problem.js';
import {
  capacityProblems,
  filterProperties,
  foldedTextProblems,
  highlightAsked,
  highlightProperty,
  REPEATABLE_FILTERS,
  parameterDocs,
  toFilters,
  type SearchFilters,
} from './filters.js';
import { CURSOR_START, decodeCursor, type Cursor } from './cursor.js';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './detail.js';
import { facetsProperty, toFacetNames, type FacetName } from './facets.js';
import { fieldsProperty, toItemFields, type ItemField } from './fields.js';
import { readQueryString } from './querystring.js';
import { SORT_ORDERS, type SortOrder } from './sortOrder.js';
import { paramsValidator, validOnly, type ParamsSchema, type ParsedParams } from './validate.js';
import type { InvalidParam } from '../http/problem.js';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;
/** page × per_page may not exceed this (the index's max_result_window). */
export const MAX_RESULT_WINDOW = 10_000;
/** Most slugs one batch lookup may name. */
export const MAX_SLUGS = 100;

export interface ListQuery extends SearchFilters {
  sort: SortOrder;
  page: number;
  perPage: number;
  /** Batch lookup: only these slugs (still only published and active PPAs). */
  slugs?: string[];
  /** Only these item fields (slug always; url is added by the presenter). Absent: every field. */
  fields?: ItemField[];
  /** Breakdowns to count beside the page. */
  facets?: FacetName[];
  /** Cursor mode (cursor=… instead of page): where the walk resumes. */
  cursor?: Cursor;
  /** highlight=true: items carry `highlights` (with q). */
  highlight?: true;
}

export const listParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    sort: {
      type: 'string',
      enum: [...SORT_ORDERS],
      description:
        'Order of the results. Default: relevance with q, recent without. relevance requires q. recent/oldest ' +
        'order by published_at; name_* by the project name without case and accents; every order ends with slug ascending.',
    },
    page: {
      type: 'integer',
      minimum: 1,
      default: 1,
      description:
        `1-based page number. page × per_page may not exceed ${MAX_RESULT_WINDOW} (400, named by page). ` +
        'A page past the last answers 200 with an empty data array.',
    },
    per_page: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PER_PAGE,
      default: DEFAULT_PER_PAGE,
      description: `Page size, 1 to ${MAX_PER_PAGE}.`,
    },
    slug: {
      type: 'array',
      items: {
        type: 'string',
        pattern: SLUG_PATTERN,
        maxLength: SLUG_MAX_LENGTH,
        description: 'a slug (lowercase letters and digits in hyphen-separated groups)',
      },
      minItems: 1,
      maxItems: MAX_SLUGS,
      description:
        `Only these PPAs (batch lookup): up to ${MAX_SLUGS} slugs joined by ",". Still only published and active ` +
        'ones: an unknown, unpublished or inactive slug is silently absent. Order as sort says.',
    },
    fields: fieldsProperty,
    facets: facetsProperty,
    highlight: highlightProperty,
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 1100,
      description:
        `Cursor paging, past the ${MAX_RESULT_WINDOW.toLocaleString('en')} results pages can reach: "${CURSOR_START}" starts a ` +
        'walk over every match in the requested sort; each answer has meta.next_cursor (null at the end) and ' +
        'links.next built from it. Opaque: a cursor used with other filters, q or sort than the walk began with, ' +
        'or altered, is 400. Not with page.',
    },
  },
} satisfies ParamsSchema;

/** The list parameters as OpenAPI `parameters` entries, built from listParamsSchema. */
export const listParameters = parameterDocs(listParamsSchema.properties);

const validator = paramsValidator(listParamsSchema, { repeatable: REPEATABLE_FILTERS });

/**
 * The filters and the order of a list or an export, with their cross-field problems added to `problems`. The
 * order by default: relevance with q, recent without; relevance without q is a problem of sort.
 */
export function filtersAndSort(
  valid: ParsedParams,
  problems: InvalidParam[],
): { filters: SearchFilters; sort: SortOrder } {
  const filters = toFilters(valid);
  problems.push(...capacityProblems(filters), ...foldedTextProblems(filters));
  const sort = typeof valid.sort === 'string' ? (valid.sort as SortOrder) : undefined;
  if (sort === 'relevance' && filters.q === undefined && !problems.some((p) => p.name === 'q')) {
    problems.push({ name: 'sort', reason: 'relevance requires a non-blank q' });
  }
  return { filters, sort: sort ?? (filters.q === undefined ? 'recent' : 'relevance') };
}

/** Parses the raw query string of a list request; throws BadRequestError naming every problem at once. */
export function parseListQuery(querystring: string): ListQuery {
  const { params, problems } = validator.validate(readQueryString(querystring));
  const valid = validOnly(params, problems);
  const { filters, sort } = filtersAndSort(valid, problems);
  const page = typeof valid.page === 'number' ? valid.page : 1;
  const perPage = typeof valid.per_page === 'number' ? valid.per_page : DEFAULT_PER_PAGE;
  const cursorText = typeof valid.cursor === 'string' ? valid.cursor : undefined;
  // Judged only on values that are valid themselves (a bad per_page is its own problem, not page's).
  const perPageInvalid = problems.some((problem) => problem.name === 'per_page');
  if (cursorText === undefined && !perPageInvalid && page * perPage > MAX_RESULT_WINDOW) {
    problems.push({
      name: 'page',
      reason:
        `page × per_page must not exceed ${MAX_RESULT_WINDOW} (results past the first ${MAX_RESULT_WINDOW} ` +
        `cannot be paged to): walk them with cursor=${CURSOR_START} instead of page`,
    });
  }
  const query: ListQuery = {
    ...filters,
    sort,
    page,
    perPage,
    ...(Array.isArray(valid.slug) ? { slugs: [...new Set(valid.slug)] } : {}),
    ...(Array.isArray(valid.fields) ? { fields: toItemFields(valid.fields) } : {}),
    ...(Array.isArray(valid.facets) ? { facets: toFacetNames(valid.facets) } : {}),
    ...(highlightAsked(valid) ? { highlight: true as const } : {}),
  };
  if (cursorText !== undefined) {
    if (valid.page !== undefined || problems.some((problem) => problem.name === 'page')) {
      problems.push({
        name: 'cursor',
        reason: 'cursor and page cannot be used together (a cursor says where to go on)',
      });
    } else if (!problems.some((problem) => ['q', 'sort'].includes(problem.name))) {
      const cursor = decodeCursor(query, cursorText);
      if ('problem' in cursor) problems.push({ name: 'cursor', reason: cursor.problem });
      else query.cursor = cursor;
    }
  }
  if (problems.length > 0) throw new BadRequestError(problems);
  return query;
}
