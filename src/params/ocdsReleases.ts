// GET /api/v1/ppas/ocds: the list's parameters that choose and order PPAs (the filters, q, sort, slug) and its page
// size, paged by cursor only; what only shapes a list page (page, fields, facets, highlight) is not one of them. What
// it reads from them is a list query in cursor mode, so the list's search, order and cursors serve it.
import Type from 'typebox';
import { CURSOR_START, decodeCursor } from './cursor.js';
import { declareQuery, withDefault } from './declare.js';
import { FILTER_PARAMETERS, REPEATABLE_FILTERS } from './filters.js';
import { filtersAndSort, LIST_PARAMETERS, SORT_PARAMETER, type ListQuery } from './list.js';

/** A release package's query: a list query in cursor mode (its cursor always set, its page unused). */
export type OcdsReleasesQuery = ListQuery & Required<Pick<ListQuery, 'cursor'>>;

export const ocdsReleasesQuery = declareQuery(
  {
    ...FILTER_PARAMETERS,
    sort: SORT_PARAMETER,
    per_page: LIST_PARAMETERS.per_page,
    slug: LIST_PARAMETERS.slug,
    cursor: withDefault(
      Type.String({
        minLength: 1,
        maxLength: 1100,
        description:
          `Where the walk goes on: "${CURSOR_START}" (the default) is the first page; each package's links.next ` +
          'carries the next one while more remain. A cursor of the list (meta.next_cursor) walks on here too. ' +
          'Opaque: one used with other filters, q, slug or sort than the walk began with, or altered, is 400.',
      }),
      CURSOR_START,
    ),
  },
  (params, problems): OcdsReleasesQuery => {
    const { filters, sort } = filtersAndSort(params, problems);
    const query: ListQuery = {
      ...filters,
      sort,
      page: 1,
      perPage: params.per_page,
      ...(params.slug ? { slugs: [...new Set(params.slug)] } : {}),
    };
    // Judged only when the walk's own parameters are valid: a bad q or sort is its own problem, not the cursor's.
    const cursor = problems.some((problem) => ['q', 'sort'].includes(problem.name))
      ? { start: true as const }
      : decodeCursor(query, params.cursor);
    if ('problem' in cursor) {
      problems.push({ name: 'cursor', reason: cursor.problem });
      return { ...query, cursor: { start: true } };
    }
    return { ...query, cursor };
  },
  { repeatable: REPEATABLE_FILTERS },
);
