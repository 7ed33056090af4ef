// GET /api/v1/ppas/feed: the newest changes matching a search, as an Atom feed (docs/api.md, "Changes and feeds").
import { API_PATHS } from '../http/apiPath.js';
import {
  apiResponses,
  badRequest,
  EVERY_ANSWER,
  headerRefs,
  ifNoneMatch,
  RATE_LIMIT_HEADERS,
  requestIdHeader,
} from '../openapi/responses.js';
import { FEED_ENTRIES, feedQuery } from '../params/changes.js';
import { filterWords } from '../params/filters.js';
import { presentEvents } from '../present/changes.js';
import { FEED_MEDIA_TYPE, presentFeed } from '../present/feed.js';
import { trimSlash } from '../present/ppa.js';
import { buildChangesSearch, type ChangeEventSource } from '../queries/changesSearch.js';
import { fileRepresentation } from '../wire/representation.js';
import { operation } from './operation.js';
import { logHead } from './shared.js';

/**
 * The tag URIs' authority: the public host name (PUBLIC_BASE_URL's, else the request's). A tag's authority must be
 * a DNS name: an IPv6 literal (a client that asked by address) gets "localhost" rather than a broken id. Entry
 * ids stay stable as long as the public host does: set PUBLIC_BASE_URL.
 */
export function tagAuthorityOf(base: string): string {
  const host = new URL(base).hostname;
  return /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/i.test(host) ? host : 'localhost';
}

const feedHeaders = headerRefs([
  ...RATE_LIMIT_HEADERS,
  ...EVERY_ANSWER,
  'ETag',
  'Cache-Control',
  'Last-Modified',
]);

export const ppaFeed = operation({
  path: API_PATHS.feed,
  query: feedQuery,
  notHere: 'a feed holds the newest 50 matching changes',
  doc: {
    operationId: 'ppaFeed',
    tags: ['ppas'],
    summary: 'An Atom feed of the newest 50 changes matching a search',
    description:
      'Atom 1.0 (RFC 4287) for any list filters and q: one entry per change (tag URI id, updated = when it ' +
      'reached the index, a title saying what happened, a link to the PPA, a summary). rel="self" is this URL, ' +
      'rel="alternate" the explorer with the same search. Answers If-None-Match and If-Modified-Since with 304. ' +
      '"feed" is never looked up as a slug.',
    parameters: [
      ifNoneMatch,
      {
        name: 'If-Modified-Since',
        in: 'header',
        required: false,
        description: 'An HTTP-date: 304 when no matching change is newer (ignored with If-None-Match).',
        schema: { type: 'string' },
      },
      requestIdHeader,
    ],
    responses: {
      ...apiResponses({ description: '', schema: 'Changes' }, { '400': badRequest }),
      '200': {
        description: 'The feed.',
        headers: feedHeaders,
        content: { 'application/atom+xml': { schema: { type: 'string', description: 'Atom 1.0 XML.' } } },
      },
      '304': {
        description: 'Not modified (If-None-Match or If-Modified-Since). No body.',
        headers: feedHeaders,
      },
    },
  },
  handler:
    (deps) =>
    async ({ ctx, query: filters, answer, base, canonicalQuery }) => {
      const querystring = canonicalQuery();
      await answer(`${base} ${querystring}`, async () => {
        const head = await logHead(deps);
        const response = await deps.search.searchChangeLog<ChangeEventSource>(
          buildChangesSearch(filters, { afterSeq: head.pruned_through }, FEED_ENTRIES, 'desc'),
        );
        const root = trimSlash(base);
        const { xml, updated } = presentFeed(presentEvents(response, head.epoch, base), {
          selfUrl: `${root}${ctx.path}${querystring ? `?${querystring}` : ''}`,
          explorerUrl: `${root}/${querystring ? `?${querystring}` : ''}`,
          searchLabel: filterWords(filters),
          tagAuthority: tagAuthorityOf(root),
          tagDate: head.created_at.slice(0, 10),
          emptyUpdated: head.created_at,
          canonicalQuery: querystring,
        });
        return { ...fileRepresentation(Buffer.from(xml), FEED_MEDIA_TYPE), lastModified: updated };
      });
    },
});
