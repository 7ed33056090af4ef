// The /api/v1/ppas routes: parse (pure) → build the search (pure) → one search → present (pure).
// A route says what its answer is and its cache key (answer(), src/wire/); ETag, caching, encodings, CORS, the
// rate limit and error rendering belong to the layers around it.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { pino, type Logger } from 'pino';
import { Readable } from 'node:stream';
import { exportChunks } from '../export/exportBody.js';
import { ExportSlots } from '../export/exportSlots.js';
import { parseExportQuery } from '../params/export.js';
import { clientKey } from '../rateLimit/clientKey.js';
import { buildExportBatch } from '../search/exportSearch.js';
import { API_PREFIX } from '../http/apiPath.js';
import { originOf } from '../http/origin.js';
import { NotFoundError } from '../http/problem.js';
import { parseDetailRequest } from '../params/detail.js';
import { parseListQuery } from '../params/list.js';
import { parseStatisticsQuery } from '../params/statistics.js';
import { parseSuggestQuery } from '../params/suggest.js';
import { canonicalQueryString } from '../params/querystring.js';
import { presentList } from '../present/list.js';
import { presentPpa } from '../present/ppa.js';
import { presentStatistics } from '../present/statistics.js';
import { presentSuggestions, type SuggestSource } from '../present/suggest.js';
import { buildDetailLookup } from '../search/detailSearch.js';
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';
import type { SearchGateway } from '../search/gateway.js';
import { buildFacetCountSearch, buildListSearches } from '../search/listSearch.js';
import { combinedFacetsComplete } from '../search/facets.js';
import { buildStatisticsSearch, type StatisticsAggregations } from '../search/statisticsSearch.js';
import { buildSuggestSearch } from '../search/suggestSearch.js';
import type { AnswerFn } from '../wire/answers.js';
import type { ServedStateWatcher } from '../search/servedStateWatcher.js';
import { encodeChangeToken } from '../params/changes.js';

export interface PpasRouterDeps {
  search: SearchGateway;
  /** Answers a request from the response cache, or computes, keeps and sends it (src/wire/answers.ts). */
  answer: AnswerFn;
  /** PUBLIC_BASE_URL; unset: absolute links use the request's own origin. */
  publicBaseUrl?: string;
  /** The change log's head, for meta.changes_since and the Changes-Since header (absent: never given). */
  servedState?: ServedStateWatcher;
  /** Exports: how many may run, and where a failure mid-stream is logged (default: 4 slots, no log). */
  exports?: { slots: ExportSlots; logger: Logger };
}

const EXPORT_TYPES = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
} as const;

/**
 * Routes under the /api/v1 prefix: /ppas, /ppas/statistics, /ppas/export and /ppas/suggest (literal segments,
 * before /:slug), /ppas/:slug.
 */
export function ppasRouter(deps: PpasRouterDeps): Router {
  const router = new Router({ prefix: API_PREFIX });
  // Koa 3's ctx.origin is the Origin request header; the request's own origin is protocol + host.
  const baseOf = (ctx: Context) => deps.publicBaseUrl ?? originOf(ctx);
  /**
   * The change log's position, read before the search an answer comes from (so never later than its data);
   * null when there is no log, or its head cannot be read now (the answer itself does not depend on it).
   */
  const changesSince = async (): Promise<string | null> => {
    const state = await deps.servedState?.current().catch(() => undefined);
    return state?.head ? encodeChangeToken({ epoch: state.head.epoch, seq: state.head.seq }) : null;
  };

  router.get('/ppas', async (ctx) => {
    const query = parseListQuery(ctx.querystring);
    // Links are built from the canonical form: equivalent requests get one answer (and one cache entry).
    const querystring = canonicalQueryString(ctx.querystring);
    const base = baseOf(ctx);
    await deps.answer(ctx, { route: 'list', normalized: `${base} ${querystring}` }, async () => {
      const since = await changesSince();
      const searches = buildListSearches(query);
      const [response, facetCounts] =
        searches.length === 1
          ? [await deps.search.search<ListSource>(searches[0])]
          : await deps.search.msearch<ListSource>(searches);
      let facetAggregations = (facetCounts ?? response)?.aggregations;
      // More facet values than the combined aggregation holds, or an index from before facet_values: one by one.
      if (query.facets && !combinedFacetsComplete(facetAggregations)) {
        const separate = buildFacetCountSearch(query, query.facets, { combine: false });
        facetAggregations = (await deps.search.search<ListSource>(separate)).aggregations;
      }
      const { body, linkHeader } = presentList(response!, {
        query,
        facetAggregations,
        querystring,
        base,
        changesSince: since,
      });
      return { body, ...(linkHeader ? { link: linkHeader } : {}) };
    });
  });

  router.get('/ppas/statistics', async (ctx) => {
    const query = parseStatisticsQuery(ctx.querystring);
    await deps.answer(ctx, { route: 'statistics', normalized: JSON.stringify(query) }, async () => {
      const response = await deps.search.search<unknown, StatisticsAggregations>(
        buildStatisticsSearch(query),
      );
      return { body: presentStatistics(response) };
    });
  });

  const exports = deps.exports ?? { slots: new ExportSlots(4), logger: pino({ level: 'silent' }) };
  router.get('/ppas/export', async (ctx) => {
    const query = parseExportQuery(ctx.querystring);
    const release = exports.slots.acquire(clientKey(ctx.ip));
    let first;
    let since: string | null = null;
    try {
      since = await changesSince();
      // The first batch before the first byte: if Elasticsearch fails now, the answer is an ordinary 503.
      first = await deps.search.search<ListSource>(buildExportBatch(query));
    } catch (error) {
      release();
      throw error;
    }
    const base = baseOf(ctx);
    const chunks = exportChunks(query, deps.search, base, { response: first });
    first = undefined;
    const response = ctx.res;
    async function* body(): AsyncGenerator<string> {
      try {
        yield* chunks;
      } catch (error) {
        // Mid-stream: the status line is sent. Cut the connection, so the client sees a broken body (no final
        // chunk), never a short export that looks complete.
        exports.logger.error({ err: error, path: ctx.path }, 'export failed mid-stream: response cut');
        response.destroy();
      } finally {
        release(); // also when the client went away: the stream is destroyed, and the walk ends here
      }
    }
    const date = new Date().toISOString().slice(0, 10);
    ctx.status = 200;
    ctx.type = EXPORT_TYPES[query.format];
    ctx.set('Content-Disposition', `attachment; filename="ppas-${date}.${query.format}"`);
    ctx.set('Cache-Control', 'no-store');
    // Where to follow the change log from, so the export plus the changes after it is the live set.
    if (since !== null) ctx.set('Changes-Since', since);
    const stream = Readable.from(body(), { objectMode: false });
    // A HEAD, or a client gone before the first chunk: the body never runs, so its finally never frees the slot.
    stream.once('close', release);
    ctx.body = stream;
  });

  router.get('/ppas/suggest', async (ctx) => {
    const query = parseSuggestQuery(ctx.querystring);
    const base = baseOf(ctx);
    await deps.answer(ctx, { route: 'suggest', normalized: `${base} ${JSON.stringify(query)}` }, async () => {
      const response = await deps.search.search<SuggestSource>(buildSuggestSearch(query));
      return { body: presentSuggestions(response, base) };
    });
  });

  router.get('/ppas/:slug', async (ctx) => {
    const slug = parseDetailRequest(ctx.params.slug ?? '', ctx.querystring);
    const base = baseOf(ctx);
    await deps.answer(ctx, { route: 'detail', normalized: `${base} ${slug}` }, async () => {
      const source = await deps.search.getDocument<DetailSource>(buildDetailLookup(slug));
      if (!source) throw new NotFoundError();
      return { body: { data: presentPpa(source, base) } };
    });
  });

  return router;
}
