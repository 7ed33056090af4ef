// What one list filter is, declared once (src/params/filters.ts lists them): its query parameter's schema, its
// parsed form, the Elasticsearch clauses that select its PPAs, whether a cursor walk is bound to it, its words in
// a feed title and its row in docs/api.md. Everything else is derived from the list here: the parameters every
// filtered operation takes, `SearchFilters`, the clauses, the cursor's digest, the feed's title and the docs table.
import type { estypes } from '@elastic/elasticsearch';
import Type, { type Static, type TOptional, type TSchema } from 'typebox';
import { facetLeavingOut, type FacetableFilter } from '../../indexContract/dimensions.js';
import type { InvalidParam } from '../http/problem.js';

export type Query = estypes.QueryDslQueryContainer;

/** The facets that leave their own filter out when they count (the dimension table says which filter). */
export type { FacetableFilter };

/** Its row in docs/api.md's table of filters. */
export interface FilterDoc {
  /** The "type and bounds" column. */
  type: string;
  /** The "meaning" column. */
  meaning: string;
}

export interface ListFilter<Name extends string, Schema extends TSchema, Parsed> {
  /** The query parameter's name. */
  name: Name;
  /** Other names merged into it, each value of each adding to one list (`risk_features` for `risk_features[]`). */
  aliases?: readonly string[];
  /** The schema ajv checks a value against; the OpenAPI document shows it (its description included). */
  schema: Schema;
  /** Its parsed form from a value valid by the schema; a problem of the value alone is added to `problems`. */
  read(value: Static<Schema>, problems: InvalidParam[]): Parsed | undefined;
  /**
   * The clauses that select the PPAs it keeps (filter context, all of them must hold). Absent for `q` alone, which
   * scores: its query is the matching model's (src/queries/textQuery.ts).
   */
  clauses?(parsed: Parsed): Query[];
  /** A cursor walk is bound to its value: a cursor used with another value is refused. */
  bindsCursor: boolean;
  /** The value a cursor is bound to, when not the parsed form itself (q: its text, not its clauses). */
  bound?(parsed: Parsed): unknown;
  /** Its words in a feed's title ('technology solar_pv or wind'). */
  words(parsed: Parsed): string[];
  /** Problems that involve another filter too, named by this one (min > max); judged on valid values only. */
  check?(filters: Readonly<Record<string, unknown>>): InvalidParam[];
  doc: FilterDoc;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the list holds declarations of every parsed type
export type AnyListFilter = ListFilter<string, TSchema, any>;

/** A filter's declaration, its types kept (name, schema and parsed form) for what is derived from it. */
export function defineFilter<const Name extends string, Schema extends TSchema, Parsed>(
  declaration: ListFilter<Name, Schema, Parsed>,
): ListFilter<Name, Schema, Parsed> {
  return declaration;
}

export type ParsedOf<F> = F extends ListFilter<string, TSchema, infer Parsed> ? Parsed : never;

/** The parsed filters of a request, by the key each is declared under: absent ones filter nothing. */
export type FiltersOf<List extends Record<string, AnyListFilter>> = {
  [Key in keyof List]?: ParsedOf<List[Key]>;
};

/** The query parameters of a list of filters, by parameter name, each optional. */
export type ParametersOf<List extends Record<string, AnyListFilter>> = {
  [Key in keyof List as List[Key]['name']]: TOptional<List[Key]['schema']>;
};

export function parametersOf<List extends Record<string, AnyListFilter>>(list: List): ParametersOf<List> {
  return Object.fromEntries(
    Object.values(list).map((filter) => [filter.name, Type.Optional(filter.schema)]),
  ) as ParametersOf<List>;
}

/** The repeatable parameters and the names merged into each (declareQuery's `repeatable`). */
export function repeatableOf(list: Record<string, AnyListFilter>): Record<string, readonly string[]> {
  return Object.fromEntries(
    Object.values(list).flatMap((filter) => (filter.aliases ? [[filter.name, filter.aliases]] : [])),
  );
}

/** The parsed filters from validated parameters (by parameter name), their problems added to `problems`. */
export function readFiltersOf<List extends Record<string, AnyListFilter>>(
  list: List,
  params: Readonly<Record<string, unknown>>,
  problems: InvalidParam[],
): FiltersOf<List> {
  const filters: Record<string, unknown> = {};
  for (const [key, filter] of Object.entries(list)) {
    const value = params[filter.name];
    if (value === undefined) continue;
    const parsed: unknown = filter.read(value, problems);
    if (parsed !== undefined) filters[key] = parsed;
  }
  for (const filter of Object.values(list)) problems.push(...(filter.check?.(filters) ?? []));
  return filters as FiltersOf<List>;
}

/** One filter's clause, marked with the facet that leaves it out (if any). */
export interface FilterClause {
  clause: Query;
  facet?: FacetableFilter;
}

/**
 * The clauses of every filter set, in declaration order (`q` aside: it scores), each marked with the facet that
 * leaves it out (the dimension table names the filter a facet leaves out).
 */
export function clausesOf<List extends Record<string, AnyListFilter>>(
  list: List,
  filters: FiltersOf<List>,
  facetOf: (key: string) => FacetableFilter | undefined = facetLeavingOut,
): FilterClause[] {
  return Object.entries(list).flatMap(([key, filter]) => {
    const parsed = filters[key];
    if (parsed === undefined || !filter.clauses) return [];
    const facet = facetOf(key);
    return filter.clauses(parsed).map((clause) => (facet ? { clause, facet } : { clause }));
  });
}

/** The values a cursor walk is bound to, in one canonical form: order within a list and absent keys do not split it. */
export function cursorBindingOf<List extends Record<string, AnyListFilter>>(
  list: List,
  filters: FiltersOf<List>,
): unknown[] {
  return Object.entries(list)
    .filter(([, filter]) => filter.bindsCursor)
    .map(([key, filter]) => {
      const parsed = filters[key];
      return canonical(parsed !== undefined && filter.bound ? filter.bound(parsed) : parsed);
    });
}

function canonical(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return [...(value as unknown[])].map(canonical).sort();
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  }
  return value;
}

/** The filters in words ('q "kafue", technology solar_pv, at least 5 MW'), or null when none is set. */
export function wordsOf<List extends Record<string, AnyListFilter>>(
  list: List,
  filters: FiltersOf<List>,
): string | null {
  const parts = Object.entries(list).flatMap(([key, filter]) => {
    const parsed = filters[key];
    return parsed === undefined ? [] : filter.words(parsed);
  });
  return parts.length > 0 ? parts.join(', ') : null;
}
