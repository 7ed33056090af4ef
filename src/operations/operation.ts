// What an operation of the API is: one module per operation declares its path, its query (src/params/), its
// documentation (summary, responses naming the body schemas it sends) and its handler. The router (./router.ts)
// and the OpenAPI document (./openApi.ts) are both built from the list in ./index.ts: the router parses the query
// before the handler runs, the document lists its parameters, the response cache keys answers by operationId.
import type { ServedWordForms } from '../matching/highlight/servedWordForms.js';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { ExportSlots } from '../export/exportSlots.js';
import type { OpenApiOperation } from '../openapi/responses.js';
import { readFormBody } from '../http/formBody.js';
import { originOf } from '../http/origin.js';
import type { QueryDeclaration } from '../params/declare.js';
import { canonicalQueryString } from '../params/querystring.js';
import type { TSchema } from '../wire/bodySchema.js';
import type { Admission } from '../gateway/admission.js';
import type { SearchGateway } from '../gateway/gateway.js';
import type { LiveState } from '../liveState/liveState.js';
import type { OcdsPublication } from '../present/ocdsPackage.js';
import type { AnswerFn, Compute } from '../wire/answers.js';
import type { Representation } from '../wire/representation.js';
import type { ZeroResultsLog } from '../zeroResults/zeroResultsLog.js';

/** What handlers use: built once per app (src/app.ts). */
export interface OperationDeps {
  search: SearchGateway;
  /** Answers a request from the response cache, or computes, keeps and sends it (src/wire/answers.ts). */
  answer: AnswerFn;
  /** PUBLIC_BASE_URL; unset: absolute links use the request's own origin. */
  publicBaseUrl?: string;
  /** What is served now: the change log's head, sync's state, the rate limiter's store (src/liveState/). */
  liveState: LiveState;
  /** Exports: how many may run, and where a failure mid-stream is logged. */
  exports: { slots: ExportSlots; logger: Logger };
  /** Admission control: readiness reports shedding. */
  admission?: Admission;
  /** The OpenAPI document, serialized once. */
  openApiDocument: Representation;
  /** Where the list's searches that found nothing are counted (src/zeroResults/). */
  zeroResults: ZeroResultsLog;
  /** Who publishes the OCDS answers and under which terms (the OCDS_* variables). */
  ocds: OcdsPublication;
  /** The served words' forms the highlights keep across answers (bounded: MAX_WORD_FORMS), the app's own. */
  wordForms: ServedWordForms;
}

/** What one request of an operation has: its context, its parsed query, and its answer keyed by the operation. */
export interface OperationRequest<Q> {
  ctx: Context;
  query: Q;
  /** PUBLIC_BASE_URL, else the request's own origin: where absolute links point. */
  base: string;
  /**
   * The query string in its canonical form (src/params/querystring.ts): equivalent requests get one answer, one
   * cache entry, and links built from it.
   */
  canonicalQuery(): string;
  /** Answers from the response cache under this operation and `normalized` (its parameters), or computes: what was sent. */
  answer(normalized: string, compute: Compute): Promise<Representation>;
}

export type Handler<Q> = (request: OperationRequest<Q>) => Promise<void> | void;

export interface OperationDeclaration<Q> {
  /** The OpenAPI path template (src/http/apiPath.ts): the router turns `{slug}` into `:slug`. */
  path: string;
  /**
   * The query parameters: parsed (400 naming every problem) before the handler runs, and documented. Absent: the
   * query string is not read (the health checks, asked by load balancers).
   */
  query?: QueryDeclaration<Q>;
  /** Why another operation's parameter is not one of this one, said in its 400 ("an export is every match"). */
  notHere?: string;
  /** The GET operation's documentation, its query parameters aside; HEAD is documented from it. */
  doc: OpenApiOperation;
  /** Body schemas the documentation names (`#/components/schemas/<name>`), declared by the presenters. */
  schemas?: Record<string, TSchema>;
  /**
   * It answers without a search (the OpenAPI document): the front door never refuses it for overload. The health
   * checks are not under the API's prefix, and the door never looks at them.
   */
  withoutSearch?: true;
  /**
   * It also takes its query as a form POST body (application/x-www-form-urlencoded, bounded like a query string:
   * src/http/formBody.ts), read as a query string would be: the reconciliation services' roots, whose batches the
   * specification sends that way. The router routes POST to it; the document describes the POST.
   */
  form?: { doc: OpenApiOperation };
  /** The handler, given the app's services once. */
  handler(deps: OperationDeps): Handler<Q>;
}

/** An operation with its query's type erased, as the router and the document take it. */
export interface Operation extends Omit<OperationDeclaration<unknown>, 'handler'> {
  /** The Koa middleware: parses the query (`unknownReasons` name other operations' parameters), then handles. */
  handler(
    deps: OperationDeps,
    unknownReasons: Readonly<Record<string, string>>,
  ): (ctx: Context) => Promise<void>;
}

/** PUBLIC_BASE_URL, else the request's own origin (Koa 3's ctx.origin is the Origin header, not this). */
export const baseOf = (ctx: Context, publicBaseUrl: string | undefined): string =>
  publicBaseUrl ?? originOf(ctx);

/** The query as sent: the query string, joined by a form POST's body where the operation takes one. */
async function queryText(ctx: Context, takesForm: boolean): Promise<string> {
  if (!takesForm || ctx.method !== 'POST') return ctx.querystring;
  const body = await readFormBody(ctx);
  return [ctx.querystring, body].filter((part) => part !== '').join('&');
}

/** Declares an operation: its handler runs with the query parsed and answers keyed by its operationId. */
export function operation<Q>(declared: OperationDeclaration<Q>): Operation {
  const route = declared.doc.operationId;
  return {
    ...declared,
    handler(deps, unknownReasons) {
      const handle = declared.handler(deps);
      return async (ctx) => {
        const querystring = await queryText(ctx, declared.form !== undefined);
        const query = declared.query ? declared.query.parse(querystring, unknownReasons) : (undefined as Q);
        await handle({
          ctx,
          query,
          base: baseOf(ctx, deps.publicBaseUrl),
          canonicalQuery: () => canonicalQueryString(ctx.querystring),
          answer: (normalized, compute) => deps.answer(ctx, { route, normalized }, compute),
        });
      };
    },
  };
}
