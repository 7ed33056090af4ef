// A page of search hits → the list body (data, meta, links) and the RFC 8288 Link header with the same links.
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW, type ListQuery } from '../params/list.js';
import type { SortOrder } from '../params/sortOrder.js';
import type { ListSource } from '../../indexContract/sourceFields.js';
import type { FacetName } from '../params/facets.js';
import { CURSOR_START, encodeCursor, positionAfter } from '../params/cursor.js';
import { readFacetBuckets, type FacetBucket } from '../search/facets.js';
import { PPAS_PATH, presentListItem, trimSlash, type PpaListItem } from './ppa.js';

export interface ListMeta {
  total: number;
  /** null in cursor mode. */
  page: number | null;
  per_page: number;
  /** null in cursor mode. */
  total_pages: number | null;
  sort: SortOrder;
  /** Cursor mode only: where the next page starts; null after the last. */
  next_cursor?: string | null;
  /** Only when `facets` was asked for. */
  facets?: Partial<Record<FacetName, FacetBucket[]>>;
  /**
   * Where to follow the change log from (`since`) to keep what this answer shows current: a position no later than
   * the data it was computed from. null while the index has no change log.
   */
  changes_since: string | null;
}

export type { FacetBucket };

/** A list item: every field, or those `fields` chose plus slug and url. */
export type ListItem = Partial<PpaListItem> & Pick<PpaListItem, 'slug' | 'url'>;

export interface ListLinks {
  self: string;
  first: string;
  prev: string | null;
  next: string | null;
  /** null in cursor mode. */
  last: string | null;
}

export interface ListBody {
  data: ListItem[];
  meta: ListMeta;
  links: ListLinks;
}

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
  /** Where the facet counts are: the page's own search, or the size-0 search beside it (buildListSearches). */
  facetAggregations?: Record<string, unknown> | undefined;
  /** The change-log token read before the search (meta.changes_since); null: no log. */
  changesSince?: string | null;
}

export function presentList(
  response: estypes.SearchResponse<ListSource>,
  request: ListRequest,
): ListPresentation {
  const { query, base } = request;
  const total = totalHits(response.hits.total);
  const totalPages = Math.ceil(total / query.perPage);
  const hits = response.hits.hits;
  const data = hits.flatMap((hit) =>
    hit._source ? [pickFields(presentListItem(hit._source, base), query.fields)] : [],
  );
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
  if (query.facets)
    meta.facets = readFacetBuckets(request.facetAggregations ?? response.aggregations, query.facets);
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
 * The list URL with `replace` set (each where it stood, else appended) and `drop` left out; every other
 * parameter kept as sent.
 */
function withParameters(request: ListRequest, replace: Record<string, string>, drop: string[] = []): string {
  const parts: string[] = [];
  const placed = new Set<string>();
  for (const part of request.querystring.split('&')) {
    if (part === '') continue;
    const name = parameterName(part);
    if (drop.includes(name)) continue;
    if (name in replace) {
      if (!placed.has(name)) parts.push(`${name}=${encodeURIComponent(replace[name] ?? '')}`);
      placed.add(name);
      continue;
    }
    parts.push(encodeUnsafe(part));
  }
  for (const [name, value] of Object.entries(replace)) {
    if (!placed.has(name)) parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return `${trimSlash(request.base)}${PPAS_PATH}?${parts.join('&')}`;
}

/**
 * The list URL for another page: every other parameter kept as sent (same order, same encoding), `page`
 * replaced where it stood (or appended). Characters a URL may not carry raw are percent-encoded.
 */
export function pageUrl(request: ListRequest, page: number): string {
  const parts: string[] = [];
  let placed = false;
  for (const part of request.querystring.split('&')) {
    if (part === '') continue;
    if (parameterName(part) === 'page') {
      if (!placed) parts.push(`page=${page}`);
      placed = true;
      continue;
    }
    parts.push(encodeUnsafe(part));
  }
  if (!placed) parts.push(`page=${page}`);
  return `${trimSlash(request.base)}${PPAS_PATH}?${parts.join('&')}`;
}

function parameterName(part: string): string {
  const [name = ''] = new URLSearchParams(part).keys();
  return name;
}

// RFC 3986 characters allowed in a query, plus "%" (already-encoded octets stay as they are) and the "[]"
// of risk_features[] that browsers send raw.
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%[\]]/gu;

function encodeUnsafe(part: string): string {
  return part.replace(UNSAFE, percentEncode).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
}

// Node hands over the request target byte by byte (latin1), so a raw byte is re-encoded as that same byte.
function percentEncode(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x100) return `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  try {
    return encodeURIComponent(character);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as URL parsers do
  }
}

export function linkHeader(links: ListLinks): string {
  return (Object.entries(links) as [keyof ListLinks, string | null][])
    .filter((entry): entry is [keyof ListLinks, string] => entry[1] !== null)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`)
    .join(', ');
}
