// GET /api/v1/ppas: the list's parameters, declared once (the OpenAPI document lists them from here), and what the
// list reads from them.
import Type from 'typebox';
import type { InvalidParam } from '../http/problem.js';
import { looksFor } from '../matching/queryText.js';
import { CURSOR_START, decodeCursor, type Cursor } from './cursor.js';
import { declareQuery, withDefault } from './declare.js';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './detail.js';
import { FACETS_PARAMETER, toFacetNames, type FacetName } from './facets.js';
import { EVIDENCE_FIELD, fieldsParameter, toItemFields, type ItemField } from './itemFields.js';
import { FILTER_PARAMETERS, readFilters, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';
import { HIGHLIGHT_PARAMETER } from './highlight.js';
import { SORT_ORDERS, type SortOrder } from './sortOrder.js';

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
  /** `fields` named flag_evidence: each item carries its flags' evidence. */
  evidence?: true;
  /** Breakdowns to count beside the page. */
  facets?: FacetName[];
  /** Cursor mode (cursor=… instead of page): where the walk resumes. */
  cursor?: Cursor;
  /** highlight=true: items carry `highlights` (with q). */
  highlight?: true;
}

/** `sort`: the list and the export take it. */
export const SORT_PARAMETER = Type.Optional(
  Type.Unsafe<SortOrder>({
    type: 'string',
    enum: [...SORT_ORDERS],
    description:
      'Order of the results. Default: relevance with q, recent without. relevance requires q. recent/oldest ' +
      'order by published_at; name_* by the project name without case and accents; flags_desc: most red flags ' +
      'first, then published_at descending; every order ends with slug ascending.',
  }),
);

export const LIST_PARAMETERS = {
  ...FILTER_PARAMETERS,
  sort: SORT_PARAMETER,
  page: withDefault(
    Type.Integer({
      minimum: 1,
      description:
        `1-based page number. page × per_page may not exceed ${MAX_RESULT_WINDOW} (400, named by page). ` +
        'A page past the last answers 200 with an empty data array.',
    }),
    1,
  ),
  per_page: withDefault(
    Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Page size, 1 to ${MAX_PER_PAGE}.` }),
    DEFAULT_PER_PAGE,
  ),
  slug: Type.Optional(
    Type.Array(
      Type.String({
        pattern: SLUG_PATTERN,
        maxLength: SLUG_MAX_LENGTH,
        description: 'a slug (lowercase letters and digits in hyphen-separated groups)',
      }),
      {
        minItems: 1,
        maxItems: MAX_SLUGS,
        description:
          `Only these PPAs (batch lookup): up to ${MAX_SLUGS} slugs joined by ",". Still only published and active ` +
          'ones: an unknown, unpublished or inactive slug is silently absent. Order as sort says.',
      },
    ),
  ),
  fields: fieldsParameter(
    ` ${EVIDENCE_FIELD} (never by default) adds each raised flag's evidence, as the detail gives it.`,
    [EVIDENCE_FIELD],
  ),
  facets: FACETS_PARAMETER,
  highlight: HIGHLIGHT_PARAMETER,
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1100,
      description:
        `Cursor paging, past the ${MAX_RESULT_WINDOW.toLocaleString('en')} results pages can reach: "${CURSOR_START}" starts a ` +
        'walk over every match in the requested sort; each answer has meta.next_cursor (null at the end) and ' +
        'links.next built from it. Opaque: a cursor used with other filters, q or sort than the walk began with, ' +
        'or altered, is 400. Not with page.',
    }),
  ),
};

/**
 * The filters and the order of a list or an export, with their cross-field problems added to `problems`. The
 * order by default: relevance with q, recent without; relevance without q is a problem of sort.
 */
export function filtersAndSort(
  params: Readonly<Record<string, unknown>> & { sort?: SortOrder },
  problems: InvalidParam[],
): { filters: SearchFilters; sort: SortOrder } {
  const filters = readFilters(params, problems);
  const { sort } = params;
  // A q that only leaves out (-coal) ranks nothing: it orders as without q.
  const ranked = filters.q !== undefined && looksFor(filters.q.parsed);
  if (sort === 'relevance' && !ranked && !problems.some((p) => p.name === 'q')) {
    problems.push({
      name: 'sort',
      reason:
        filters.q === undefined
          ? 'relevance requires a non-blank q'
          : 'relevance requires a q that looks for something, not only what it leaves out',
    });
  }
  return { filters, sort: sort ?? (ranked ? 'relevance' : 'recent') };
}

/** GET /api/v1/ppas's parameters, and what the list reads from them. */
export const listQuery = declareQuery(
  LIST_PARAMETERS,
  (params, problems, sent): ListQuery => {
    const { filters, sort } = filtersAndSort(params, problems);
    const { page, per_page: perPage, cursor: cursorText } = params;
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
      ...(params.slug ? { slugs: [...new Set(params.slug)] } : {}),
      ...(params.fields ? { fields: toItemFields(params.fields) } : {}),
      ...(params.fields?.includes(EVIDENCE_FIELD) ? { evidence: true as const } : {}),
      ...(params.facets ? { facets: toFacetNames(params.facets) } : {}),
      ...(params.highlight === 'true' ? { highlight: true as const } : {}),
    };
    if (cursorText !== undefined) {
      if (sent.has('page')) {
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
    return query;
  },
  { repeatable: REPEATABLE_FILTERS },
);

/** Parses the raw query string of a list request; throws BadRequestError naming every problem at once. */
export function parseListQuery(querystring: string): ListQuery {
  return listQuery.parse(querystring);
}
