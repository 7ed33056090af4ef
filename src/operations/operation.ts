// What an operation of the API is: one module per operation declares its path, its documentation (summary,
// parameters from the parameter module's own schema, responses naming the body schemas it sends) and its handler.
// The router (./router.ts) and the OpenAPI document (src/openapi/spec.ts) are both built from the list in ./index.ts.
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { ExportSlots } from '../export/exportSlots.js';
import type { OpenApiOperation } from '../openapi/responses.js';
import type { TSchema } from '../present/bodySchema.js';
import type { ClientRateLimiter } from '../rateLimit/index.js';
import type { Admission } from '../search/admission.js';
import type { SearchGateway } from '../search/gateway.js';
import type { ServedStateWatcher } from '../search/servedStateWatcher.js';
import type { AnswerFn } from '../wire/answers.js';
import type { Representation } from '../wire/representation.js';

/** What handlers use: built once per app (src/app.ts). */
export interface OperationDeps {
  search: SearchGateway;
  /** Answers a request from the response cache, or computes, keeps and sends it (src/wire/answers.ts). */
  answer: AnswerFn;
  /** PUBLIC_BASE_URL; unset: absolute links use the request's own origin. */
  publicBaseUrl?: string;
  /** The change log's head and sync's state (absent: no log is ever read; the changes operations need it). */
  servedState?: ServedStateWatcher;
  /** Exports: how many may run, and where a failure mid-stream is logged. */
  exports: { slots: ExportSlots; logger: Logger };
  /** The rate limiter, whose store readiness reports. */
  limiter: ClientRateLimiter;
  /** Admission control: readiness reports shedding. */
  admission?: Admission;
  /** The OpenAPI document, serialized once. */
  openApiDocument: Representation;
}

export type Handler = (ctx: Context) => Promise<void> | void;

export interface Operation {
  /** The OpenAPI path template: `/api/v1/ppas/{slug}` (the router turns `{slug}` into `:slug`). */
  path: string;
  /** The GET operation's documentation; HEAD is documented from it (GET without the body). */
  doc: OpenApiOperation;
  /** Body schemas the documentation names (`#/components/schemas/<name>`), declared by the presenters. */
  schemas?: Record<string, TSchema>;
  /** The handler, given the app's services once. */
  handler(deps: OperationDeps): Handler;
}

/** Declares an operation (the identity, for the types). */
export const operation = (declared: Operation): Operation => declared;
