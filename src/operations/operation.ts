// What an operation of the API is: one module per operation declares its path, its documentation (summary,
// parameters from the parameter module's own schema, responses naming the body schemas it sends) and its handler.
// The router (./router.ts) and the OpenAPI document (src/openapi/spec.ts) are both built from the list in ./index.ts.
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { ExportSlots } from '../export/exportSlots.js';
import type { OpenApiOperation } from '../openapi/responses.js';
import type { TSchema } from '../present/bodySchema.js';
import type { Admission } from '../search/admission.js';
import type { SearchGateway } from '../search/gateway.js';
import type { LiveState } from '../liveState/liveState.js';
import type { AnswerFn } from '../wire/answers.js';
import type { Representation } from '../wire/representation.js';

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
}

export type Handler = (ctx: Context) => Promise<void> | void;

export interface Operation {
  /** The OpenAPI path template: `/api/v1/ppas/{slug}` (the router turns `{slug}` into `:slug`). */
  path: string;
  /** The GET operation's documentation; HEAD is documented from it (GET without the body). */
  doc: OpenApiOperation;
  /** Body schemas the documentation names (`#/components/schemas/<name>`), declared by the presenters. */
  schemas?: Record<string, TSchema>;
  /**
   * It answers without a search (the OpenAPI document): the front door never refuses it for overload. The health
   * checks are not under the API's prefix, and the door never looks at them.
   */
  withoutSearch?: true;
  /** The handler, given the app's services once. */
  handler(deps: OperationDeps): Handler;
}

/** Declares an operation (the identity, for the types). */
export const operation = (declared: Operation): Operation => declared;
