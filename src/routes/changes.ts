// GET /api/v1/ppas/changes and /api/v1/ppas/feed (literal segments: registered before /ppas/:slug): the change
// log as JSON from `since`, oldest first, and as Atom, newest first. Both match the list's filters and `q`
// against each event's PPA as it was in that change.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { ChangeLogHead } from '../../indexContract/changeLog.js';
import { API_PREFIX } from '../http/apiPath.js';
import { originOf } from '../http/origin.js';
import { GoneError, ServiceUnavailableError } from '../http/problem.js';
import { encodeChangeToken, FEED_ENTRIES, parseChangesQuery, parseFeedQuery } from '../params/changes.js';
import type { SearchFilters } from '../params/filters.js';
import { canonicalQueryString } from '../params/querystring.js';
import { presentChanges, presentEvents } from '../present/changes.js';
import { FEED_MEDIA_TYPE, presentFeed } from '../present/feed.js';
import { trimSlash } from '../present/ppa.js';
import { buildChangesSearch, type ChangeEventSource, type EventsStart } from '../search/changesSearch.js';
import type { SearchGateway } from '../search/gateway.js';
import type { ServedStateWatcher } from '../search/servedStateWatcher.js';
import type { AnswerFn } from '../wire/answers.js';
import { fileRepresentation } from '../wire/representation.js';

export interface ChangesRouterDeps {
  search: SearchGateway;
  answer: AnswerFn;
  servedState: ServedStateWatcher;
  publicBaseUrl?: string;
}

const EXPORT_AGAIN =
  'Take a new export (GET /api/v1/ppas/export, its Changes-Since header) and follow the changes from there.';

/** The log's head, or 503 while no log exists (no reindex or sync of this release has run yet). */
async function logHead(servedState: ServedStateWatcher): Promise<ChangeLogHead> {
  // The log's own operations wait for the head as long as the lookup takes (within the request's deadline).
  const { head } = await servedState.current(Infinity);
  if (!head) {
    throw new ServiceUnavailableError(
      'The change log has not started yet: it starts with the next reindex or sync of the index.',
      30,
    );
  }
  return head;
}

/** The search in words, for the feed's title: 'q "kafue", technology solar, country SN'. */
export function searchLabel(filters: SearchFilters): string | null {
  const parts: string[] = [];
  if (filters.q !== undefined) parts.push(`q "${filters.q}"`);
  if (filters.technology) parts.push(`technology ${filters.technology.join(' or ')}`);
  if (filters.tariff) parts.push(`tariff ${filters.tariff.join(' or ')}`);
  if (filters.country) parts.push(`country ${filters.country.join(' or ')}`);
  if (filters.developer !== undefined) parts.push(`developer "${filters.developer}"`);
  if (filters.year !== undefined) parts.push(`year ${filters.year}`);
  if (filters.riskFeatures) parts.push(`risk features ${filters.riskFeatures.join(' and ')}`);
  if (filters.minCapacity !== undefined) parts.push(`at least ${filters.minCapacity} MW`);
  if (filters.maxCapacity !== undefined) parts.push(`at most ${filters.maxCapacity} MW`);
  return parts.length ? parts.join(', ') : null;
}

/**
 * The tag URIs' authority: the public host name (PUBLIC_BASE_URL's, else the request's). A tag's authority must be
 * a DNS name: an IPv6 literal (a client that asked by address) gets "localhost" rather than a broken id. Entry
 * ids stay stable as long as the public host does: set PUBLIC_BASE_URL.
 */
export function tagAuthorityOf(base: string): string {
  const host = new URL(base).hostname;
  return /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/i.test(host) ? host : 'localhost';
}

export function changesRouter(deps: ChangesRouterDeps): Router {
  const router = new Router({ prefix: API_PREFIX });
  const baseOf = (ctx: Context) => deps.publicBaseUrl ?? originOf(ctx);

  router.get('/ppas/changes', async (ctx) => {
    const query = parseChangesQuery(ctx.querystring);
    const querystring = canonicalQueryString(ctx.querystring);
    const base = baseOf(ctx);
    await deps.answer(ctx, { route: 'changes', normalized: `${base} ${querystring}` }, async () => {
      // Read before the search: every event up to the head is visible to it (published after a refresh).
      const head = await logHead(deps.servedState);
      let start: EventsStart;
      if ('after' in query.start) {
        const { epoch, seq } = query.start.after;
        if (epoch !== head.epoch)
          throw new GoneError(`This token is from another change log (it was made anew). ${EXPORT_AGAIN}`);
        if (seq < head.pruned_through)
          throw new GoneError(
            `Changes before ${head.retained_since} are no longer kept (the retention). ${EXPORT_AGAIN}`,
          );
        start = { afterSeq: seq };
      } else if ('from' in query.start) {
        if (head.pruned_through > 0 && Date.parse(query.start.from) < Date.parse(head.retained_since))
          throw new GoneError(
            `Changes before ${head.retained_since} are no longer kept (the retention). ${EXPORT_AGAIN}`,
          );
        start = { from: query.start.from };
      } else start = { afterSeq: head.pruned_through };
      const response = await deps.search.searchChangeLog<ChangeEventSource>(
        buildChangesSearch(query.filters, start, query.limit, 'asc'),
      );
      const hits = response.hits.hits;
      const last = hits.at(-1)?._source?.change.seq;
      const from = 'afterSeq' in start ? start.afterSeq : 0;
      // A full page goes on after its last event; a short one saw every match up to the head, so it goes on from
      // there (a filtered follower does not scan the same events again).
      const nextSeq = hits.length === query.limit ? last! : Math.max(last ?? from, head.seq, from);
      const events = presentEvents(response, head.epoch, base);
      return {
        body: presentChanges(events, {
          next: encodeChangeToken({ epoch: head.epoch, seq: nextSeq }),
          retainedSince: head.retained_since,
          base,
          querystring,
        }),
      };
    });
  });

  router.get('/ppas/feed', async (ctx) => {
    const filters = parseFeedQuery(ctx.querystring);
    const querystring = canonicalQueryString(ctx.querystring);
    const base = baseOf(ctx);
    await deps.answer(ctx, { route: 'feed', normalized: `${base} ${querystring}` }, async () => {
      const head = await logHead(deps.servedState);
      const response = await deps.search.searchChangeLog<ChangeEventSource>(
        buildChangesSearch(filters, { afterSeq: head.pruned_through }, FEED_ENTRIES, 'desc'),
      );
      const root = trimSlash(base);
      const { xml, updated } = presentFeed(presentEvents(response, head.epoch, base), {
        selfUrl: `${root}${ctx.path}${querystring ? `?${querystring}` : ''}`,
        explorerUrl: `${root}/${querystring ? `?${querystring}` : ''}`,
        searchLabel: searchLabel(filters),
        tagAuthority: tagAuthorityOf(root),
        tagDate: head.created_at.slice(0, 10),
        emptyUpdated: head.created_at,
        canonicalQuery: querystring,
      });
      return { ...fileRepresentation(Buffer.from(xml), FEED_MEDIA_TYPE), lastModified: updated };
    });
  });

  return router;
}
