// GET /api/v1/ppas/export: every matching PPA as CSV or NDJSON, streamed in batches.
import { Readable } from 'node:stream';
import type { ListSource } from '../../indexContract/sourceFields.js';
import { exportChunks } from '../export/exportBody.js';
import { attachment, OUTPUT_FORMATS } from '../export/formats.js';
import { API_PATHS } from '../http/apiPath.js';
import {
  apiResponses,
  badRequest,
  EVERY_ANSWER,
  headerRefs,
  RATE_LIMIT_HEADERS,
  requestIdHeader,
  withoutSuccess,
} from '../openapi/responses.js';
import { exportQuery } from '../params/export.js';
import { clientKey } from '../rateLimit/clientKey.js';
import { buildExportBatch } from '../queries/exportSearch.js';
import { operation } from './operation.js';
import { changesSince } from './shared.js';

export const exportPpas = operation({
  path: API_PATHS.export,
  query: exportQuery,
  notHere: 'an export is every match: no pages, cursor or facets',
  doc: {
    operationId: 'exportPpas',
    tags: ['ppas'],
    summary: 'Every matching PPA as CSV, NDJSON or OCDS JSON Lines, streamed',
    description:
      'The list filters, q and sort, over every match (no pages). CSV: RFC 4180, UTF-8, a header row, ' +
      'risk_features joined by ";", empty cells for null, and any cell beginning with =, +, -, @, tab or CR ' +
      "prefixed with ' (spreadsheet formula injection). NDJSON: one list item per line. OCDS (format=ocds): one " +
      'compiled OCDS release per line, as GET /api/v1/ppas/ocds gives them (JSON Lines). Streamed from ' +
      'Elasticsearch in batches; if Elasticsearch fails mid-stream the connection is cut (no final chunk), ' +
      'never ended as if complete. Counts one request against the rate limit; each client runs one export at ' +
      'a time and each instance at most EXPORT_CONCURRENCY: beyond that 429 with Retry-After.',
    parameters: [requestIdHeader],
    responses: {
      ...withoutSuccess(apiResponses({ description: '', schema: 'PpaList' }, { '400': badRequest })),
      '200': {
        description: 'The export (the body is streamed).',
        headers: headerRefs([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, 'Content-Disposition', 'Changes-Since']),
        content: {
          'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
          'application/x-ndjson': {
            schema: {
              type: 'string',
              description:
                'One JSON list item per line; with format=ocds one compiled OCDS release per line.',
            },
          },
        },
      },
    },
  },
  handler:
    (deps) =>
    async ({ ctx, query, base }) => {
      const exports = deps.exports;
      const release = exports.slots.acquire(clientKey(ctx.ip));
      let first;
      let since: string | null = null;
      try {
        since = await changesSince(deps);
        // The first batch before the first byte: if Elasticsearch fails now, the answer is an ordinary 503.
        first = await deps.search.search<ListSource>(buildExportBatch(query));
      } catch (error) {
        release();
        throw error;
      }
      const target = { base, ocidPrefix: deps.ocds.ocidPrefix };
      const chunks = exportChunks(query, deps.search, target, { response: first });
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
      const format = OUTPUT_FORMATS.export[query.format];
      ctx.status = 200;
      ctx.type = format.contentType;
      ctx.set('Content-Disposition', attachment('ppas', format));
      ctx.set('Cache-Control', 'no-store');
      // Where to follow the change log from, so the export plus the changes after it is the live set.
      if (since !== null) ctx.set('Changes-Since', since);
      const stream = Readable.from(body(), { objectMode: false });
      // A HEAD, or a client gone before the first chunk: the body never runs, so its finally never frees the slot.
      stream.once('close', release);
      ctx.body = stream;
    },
});
