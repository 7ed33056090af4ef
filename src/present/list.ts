// A page of search hits → the list body (data, meta, links) and the RFC 8288 Link header with the same links.
import type { estypes } from '@elastic/elasticsearch';
import { MAX_PER_PAGE, MAX_RESULT_WINDOW, type ListQuery } from '../params/list.js';
import { SORT_ORDERS } from '../params/sortOrder.js';
import type { FlagEvidence, FlagSubject } from '../../indexContract/flags.js';
import type { ListSource } from '../../indexContract/sourceFields.js';
import { FACET_DIMENSIONS } from '../../indexContract/dimensions.js';
import { MAX_FACET_BUCKETS, type FacetName } from '../params/facets.js';
import { CURSOR_START, encodeCursor, positionAfter } from '../params/cursor.js';
import type { FacetBucket } from '../queries/facetAggregations.js';
import type { ListResult } from '../queries/listPlan.js';
import {
  count,
  dimensionValue,
  oneOf,
  optionalInteger,
  optionalString,
  record,
  ref,
  Type,
  type Static,
  type TSchema,
} from '../wire/bodySchema.js';
import { highlighter, type ServedWordForms } from '../matching/highlight/highlighter.js';
import { PpaListItemSchema, presentListItem, type ListItem, type PpaListItem } from './ppa.js';
import { DidYouMeanSchema } from './didYouMean.js';
import { withParameters } from './links.js';

const facetBuckets = (value: TSchema, order: string) =>
  Type.Array(record({ value, count: Type.Integer({ minimum: 1, description: 'PPAs with this value.' }) }), {
    maxItems: MAX_FACET_BUCKETS,
    description: order,
  });

/** A facet's buckets in words: their order, the filters they count under, the PPAs no bucket holds. */
function facetOrder({ facet, optional, several }: (typeof FACET_DIMENSIONS)[number]): string {
  const order =
    facet.order === 'value_desc'
      ? `${facet.name.charAt(0).toUpperCase()}${facet.name.slice(1)} descending`
      : 'Count descending, then value ascending';
  const under = facet.disjunctive ? `under every filter but ${facet.name}` : 'under all filters';
  const without = optional && !several ? ` PPAs without a ${facet.name} are no bucket.` : '';
  return `${order}; ${under}.${without}`;
}

/** Each facet's buckets, from the dimension table. */
const FACET_SCHEMAS = Object.fromEntries(
  FACET_DIMENSIONS.map((dimension) => [
    dimension.facet.name,
    facetBuckets(dimensionValue(dimension), facetOrder(dimension)),
  ]),
) as Record<string, TSchema>;

const metaSchema = Type.Object(
  {
    total: count('Matching PPAs.'),
    page: optionalInteger({ minimum: 1, description: 'null in cursor mode.' }),
    per_page: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE }),
    total_pages: optionalInteger({
      minimum: 0,
      description: 'ceil(total / per_page); 0 when nothing matches; null in cursor mode.',
    }),
    sort: oneOf(SORT_ORDERS, { description: 'The ordering applied.' }),
    next_cursor: Type.Optional(
      optionalString({ description: 'Cursor mode only: the cursor of the next page; null after the last.' }),
    ),
    // The buckets' type is the facet reader's (src/queries/facetAggregations.ts); the schema says each facet's value type.
    facets: Type.Optional(
      Type.Unsafe<Partial<Record<FacetName, FacetBucket[]>>>({
        type: 'object',
        additionalProperties: false,
        description: 'Only with the `facets` parameter: one key per facet asked for.',
        properties: FACET_SCHEMAS,
      }),
    ),
    did_you_mean: DidYouMeanSchema('PPAs it finds: the meta.total of the url.'),
    changes_since: optionalString({
      maxLength: 40,
      description:
        'Where to follow GET /api/v1/ppas/changes from (its `since`) to keep what this answer shows current; ' +
        "in a cursor walk, the first page's. null while the index has no change log.",
    }),
  },
  { additionalProperties: false },
);
export type ListMeta = Static<typeof metaSchema>;

const linksSchema = record(
  {
    self: Type.String({ format: 'uri' }),
    first: Type.String({ format: 'uri' }),
    prev: optionalString({ format: 'uri', description: 'null on the first page.' }),
    next: optionalString({
      format: 'uri',
      description: 'null on the last page; past 10,000 results it goes on in cursor mode.',
    }),
    last: optionalString({ format: 'uri', description: 'Page max(total_pages, 1); null in cursor mode.' }),
  },
  'Absolute links keeping every other parameter; the same links are in the Link header.',
);
export type ListLinks = Static<typeof linksSchema>;

/** The list's body (component PpaList of the document). */
export const PpaListSchema = record({
  data: Type.Array(ref('PpaListItem', PpaListItemSchema), { maxItems: MAX_PER_PAGE }),
  meta: metaSchema,
  links: linksSchema,
});
export type ListBody = Static<typeof PpaListSchema>;

export type { FacetBucket, ListItem };

export interface ListPresentation {
  body: ListBody;
  /**
   * The Link header value (RFC 8288) carrying the same links as the body; undefined when it would be longer
   * than MAX_LINK_HEADER_BYTES (the body's links still carry the URLs).
   */
  linkHeader: string | undefined;
}

/**
 * The Link header repeats the query string five times: past this it is left out, so the whole header block stays
 * under 8 KB (the default buffer of nginx and of many clients) with room for the other headers.
 */
export const MAX_LINK_HEADER_BYTES = 6144;

export interface ListRequest {
  query: ListQuery;
  /** The raw query string as the client sent it: links keep every other parameter exactly. */
  querystring: string;
  /** PUBLIC_BASE_URL or the request's origin. */
  base: string;
  /** The change-log token read before the search (meta.changes_since); null: no log. */
  changesSince?: string | null;
  /** highlighterFor(query), made before the search was sent (see there); undefined: no highlights. */
  highlight: ItemHighlighter | undefined;
  /** fields named flag_evidence: each item's evidence (src/operations/shared.ts evidenceReader). */
  evidence?: EvidenceOf;
}

type ItemHighlighter = ReturnType<typeof highlighter>;

/** The evidence of a document's flags, read from the generation `index`. */
export type EvidenceOf = (
  source: FlagSubject & { flags?: readonly string[] },
  index: string,
) => FlagEvidence[];

/**
 * The highlighter of a list query (undefined: none asked, or no q). Made before the search is sent, right after
 * the search's own body: reading q for the highlights uses the code and data that building the text query just
 * used (folding, canonical forms), which Elasticsearch's work evicts from the processor's caches while it answers
 * (what that saves: docs/performance.md, "Highlights").
 */
export const highlighterFor = (query: ListQuery, wordForms?: ServedWordForms): ItemHighlighter | undefined =>
  query.highlight && query.q !== undefined ? highlighter(query.q, 'list', wordForms) : undefined;

export function presentList(
  { response, facets, didYouMean }: ListResult,
  request: ListRequest,
): ListPresentation {
  const { query, base, highlight, evidence } = request;
  const total = totalHits(response.hits.total);
  const totalPages = Math.ceil(total / query.perPage);
  const hits = response.hits.hits;
  const data = hits.flatMap((hit) => {
    if (!hit._source) return [];
    const item = pickFields(presentListItem(hit._source, base), query.fields);
    if (highlight) item.highlights = highlight(item);
    if (evidence) item.flag_evidence = evidence(hit._source as FlagSubject, hit._index);
    return [item];
  });
  // The cursor after this page's last record: only when the page is full (a short page is the last one).
  const lastSort = hits.length === query.perPage ? hits[hits.length - 1]?.sort : undefined;
  const nextCursor = lastSort ? encodeCursor(query, positionAfter(lastSort)) : null;
  let links: ListLinks;
  let meta: ListMeta;
  if (query.cursor) {
    links = {
      self: withParameters(request, { cursor: query.cursor.start ? CURSOR_START : currentCursor(request) }),
      first: withParameters(request, { cursor: CURSOR_START }),
      prev: null,
      next: nextCursor ? withParameters(request, { cursor: nextCursor }) : null,
      last: null,
    };
    meta = {
      total,
      page: null,
      per_page: query.perPage,
      total_pages: null,
      sort: query.sort,
      next_cursor: nextCursor,
      changes_since: request.changesSince ?? null,
    };
  } else {
    links = buildListLinks(request, totalPages, nextCursor);
    meta = {
      total,
      page: query.page,
      per_page: query.perPage,
      total_pages: totalPages,
      sort: query.sort,
      changes_since: request.changesSince ?? null,
    };
  }
  if (facets) meta.facets = facets;
  if (didYouMean === null) meta.did_you_mean = null;
  else if (didYouMean) {
    // The same request with that q, from its first page (a cursor walk from its start).
    const url = withParameters(
      request,
      { q: didYouMean.q, ...(query.cursor ? { cursor: CURSOR_START } : {}) },
      ['page'],
    );
    meta.did_you_mean = { ...didYouMean, url };
  }
  const header = linkHeader(links);
  return {
    body: { data, meta, links },
    linkHeader: Buffer.byteLength(header) <= MAX_LINK_HEADER_BYTES ? header : undefined,
  };
}

/** A list item from its _source: every field, or those `fields` names plus slug and url. */
export function listItem(source: ListSource, base: string, fields?: readonly string[]): ListItem {
  return pickFields(presentListItem(source, base), fields);
}

function pickFields(item: PpaListItem, fields: readonly string[] | undefined): ListItem {
  if (!fields) return item;
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = item[field as keyof PpaListItem];
  return { ...picked, slug: item.slug, url: item.url } as ListItem;
}

function totalHits(total: estypes.SearchTotalHits | number | undefined): number {
  if (typeof total === 'number') return total;
  return total?.value ?? 0;
}

/**
 * prev/next are null at the ends; first is page 1 and last is page max(total_pages, 1). At the deep-paging window
 * `next` goes on in cursor mode (from this page's last record): a client that follows `next` is never led to a
 * page that answers 400, and can still reach every match.
 */
export function buildListLinks(
  request: ListRequest,
  totalPages: number,
  nextCursor: string | null = null,
): ListLinks {
  const { page, perPage } = request.query;
  const last = Math.max(totalPages, 1);
  const nextIsPageable = (page + 1) * perPage <= MAX_RESULT_WINDOW;
  const at = (target: number) => pageUrl(request, target);
  let next: string | null = null;
  if (page < totalPages) {
    if (nextIsPageable) next = at(page + 1);
    else if (nextCursor) next = withParameters(request, { cursor: nextCursor }, ['page']);
  }
  return { self: at(page), first: at(1), prev: page > 1 ? at(page - 1) : null, next, last: at(last) };
}

/** The cursor the request came with, as sent. */
function currentCursor(request: ListRequest): string {
  return new URLSearchParams(request.querystring).get('cursor') ?? CURSOR_START;
}

/**
 * The list URL for another page: every other parameter kept as sent (same order, same encoding), `page`
 * replaced where it stood (or appended). Characters a URL may not carry raw are percent-encoded.
 */
export const pageUrl = (request: ListRequest, page: number): string =>
  withParameters(request, { page: String(page) });

export function linkHeader(links: ListLinks): string {
  return (Object.entries(links) as [keyof ListLinks, string | null][])
    .filter((entry): entry is [keyof ListLinks, string] => entry[1] !== null)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`)
    .join(', ');
}
