// The operations of one reconciliation service (W3C Reconciliation Service API 0.2, the version OpenRefine speaks),
// made the same way for every service (PPAs, parties) from what differs between them (its description, its
// searches and what its entities are): its root (the manifest, query batches by GET or form POST, data extension),
// the suggest services of entities, properties and types, the preview card and the property proposal.
// docs/reconciliation.md says how to use them from OpenRefine.
import { NotFoundError } from '../http/problem.js';
import { SECURITY_HEADERS } from '../http/securityHeaders.js';
import {
  apiResponses,
  badRequest,
  ifNoneMatch,
  problem,
  requestIdHeader,
  type OpenApiOperation,
} from '../openapi/responses.js';
import {
  reconcilePreviewQuery,
  reconcilePropertiesQuery,
  reconcileSuggestQuery,
  serviceQuery,
  type ExtendQuery,
  type ReconcileQuery,
  type SuggestParams,
} from '../params/reconcile.js';
import {
  ReconcileExtensionSchema,
  ReconcileManifestSchema,
  ReconcilePropertyProposalSchema,
  ReconcileResultBatchSchema,
  ReconcileServiceAnswerSchema,
  ReconcileSuggestionsSchema,
} from '../present/reconcileBodies.js';
import { rankCandidates, type CandidateFacts } from '../present/reconcileCandidates.js';
import {
  presentExtension,
  presentManifest,
  presentProposedProperties,
  presentResultBatch,
  presentSuggestedProperties,
  presentSuggestedTypes,
  type ExtendValue,
  type ServiceDescription,
} from '../present/reconcileService.js';
import { fileRepresentation } from '../wire/representation.js';
import { operation, type Operation, type OperationDeps } from './operation.js';

/** What a service's operations need of it besides its description: its searches and what its entities are. */
export interface ServiceEntities<S> {
  /** Names the operations in the document: `Ppas` → `reconcilePpas`, `reconcilePpasPreview`… */
  operationName: string;
  description: ServiceDescription;
  /** A sentence on what its entities are, for the documentation ("published, active PPAs"). */
  entities: string;
  /** Each query's candidates as gathered, in the queries' order (one round trip for the batch). */
  gather(deps: OperationDeps, queries: readonly ReconcileQuery[]): Promise<CandidateFacts[][]>;
  /** The entities with these ids (those that exist), each with its id. */
  byIds(deps: OperationDeps, ids: readonly string[]): Promise<{ id: string; source: S }[]>;
  extendValues(source: S, property: string, base: string): ExtendValue[];
  preview(source: S, base: string): string;
  suggest(deps: OperationDeps, params: SuggestParams): Promise<object>;
}

/** The preview is made to be framed by OpenRefine: it may be, and may style itself; it loads nothing. */
export const PREVIEW_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *";

/** What the reconciliation operations document alike. */
const docOf = (operationId: string, summary: string, description: string, ok: string, schema: string) => ({
  operationId,
  tags: ['reconcile'],
  summary,
  description,
  parameters: [ifNoneMatch, requestIdHeader],
  responses: apiResponses({ description: ok, schema }, { '400': badRequest }),
});

/** The POST of a root: the same parameters in a form body. */
function formDoc(operationId: string, summary: string, description: string, form: string): OpenApiOperation {
  const responses = apiResponses(
    { description: 'A result batch or an extension.', schema: 'ReconcileServiceAnswer' },
    {
      '400': badRequest,
      '413': problem('The body is larger than a batch at its longest can be.'),
      '415': problem('The body is not application/x-www-form-urlencoded.'),
    },
  );
  delete responses['304'];
  return {
    operationId,
    tags: ['reconcile'],
    summary,
    description: `${description} The form's fields are the GET's parameters (\`queries\` or \`extend\`).`,
    parameters: [requestIdHeader],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${form}` } },
      },
    },
    responses,
  };
}

/** The root: the manifest, a result batch or an extension. */
function rootOperation<S>(service: ServiceEntities<S>): Operation {
  const { description, operationName } = service;
  const query = serviceQuery({
    queryProperties: description.queryProperties.map(({ id }) => id),
    extendProperties: description.extendProperties.map(({ id }) => id),
  });
  const about =
    `${description.name} (W3C Reconciliation Service API 0.2): without \`queries\` or \`extend\`, its manifest; ` +
    `with \`queries\`, each query's candidates (${service.entities}), best first, scored from their features; with ` +
    '`extend`, the asked columns of the given entities. A batch counts one request against the rate limit. ' +
    'docs/reconciliation.md: adding it to OpenRefine, what `score` and `match` mean.';
  const summary = `Reconcile ${description.type.name}: the manifest, a query batch or a data extension`;
  const resultBatch = async (deps: OperationDeps, queries: readonly ReconcileQuery[]) => {
    // A query for another type has no candidates: it is not searched for.
    const searched = queries.filter((one) => !one.types || one.types.includes(description.type.id));
    const gathered = searched.length > 0 ? await service.gather(deps, searched) : [];
    const candidates = queries.map((one) => {
      const facts = gathered[searched.indexOf(one)];
      return facts ? rankCandidates(one, facts, description.type) : [];
    });
    return presentResultBatch(queries, candidates);
  };
  const extension = async (deps: OperationDeps, extend: ExtendQuery, base: string) => {
    const ids = [...new Set(extend.ids)];
    const found = new Map(
      (ids.length > 0 ? await service.byIds(deps, ids) : []).map((e) => [e.id, e.source]),
    );
    return presentExtension(description, extend, (id, property) => {
      const source = found.get(id);
      return source === undefined ? [] : service.extendValues(source, property, base);
    });
  };
  return operation({
    path: description.paths.root,
    query,
    notHere: 'the reconciliation service takes queries or extend',
    doc: docOf(
      `reconcile${operationName}`,
      summary,
      about,
      'The manifest, a result batch or an extension.',
      'ReconcileServiceAnswer',
    ),
    form: { doc: formDoc(`reconcile${operationName}Batch`, summary, about, `Reconcile${operationName}Form`) },
    schemas: {
      ReconcileManifest: ReconcileManifestSchema,
      ReconcileResultBatch: ReconcileResultBatchSchema,
      ReconcileExtension: ReconcileExtensionSchema,
      ReconcileServiceAnswer: ReconcileServiceAnswerSchema,
      [`Reconcile${operationName}Form`]: query.schema,
    },
    handler:
      (deps) =>
      async ({ query: asked, answer, base }) => {
        await answer(`${base} ${JSON.stringify(asked)}`, async () => {
          if (asked.kind === 'batch') return { body: await resultBatch(deps, asked.queries) };
          if (asked.kind === 'extend') return { body: await extension(deps, asked.extend, base) };
          return { body: presentManifest(description, base) };
        });
      },
  });
}

/** The suggest service of entities: the service's own search. */
function suggestEntityOperation<S>(service: ServiceEntities<S>): Operation {
  const { description, operationName } = service;
  return operation({
    path: description.paths.suggestEntity,
    query: reconcileSuggestQuery,
    notHere: 'suggestions read what is typed so far, in prefix',
    doc: docOf(
      `reconcile${operationName}SuggestEntity`,
      `Reconcile ${description.type.name}: entities by the start of their name`,
      `${service.entities} whose name has words starting as the prefix's, from the cursor; another type has none.`,
      'Suggested entities.',
      'ReconcileSuggestions',
    ),
    schemas: { ReconcileSuggestions: ReconcileSuggestionsSchema },
    handler:
      (deps) =>
      async ({ query, answer, base }) => {
        await answer(`${base} ${JSON.stringify(query)}`, async () => {
          if (query.type !== undefined && query.type !== description.type.id) return { body: { result: [] } };
          return { body: await service.suggest(deps, query) };
        });
      },
  });
}

/** The suggest services of properties and types, and the property proposal: from the description alone. */
function describingOperations(description: ServiceDescription, operationName: string): Operation[] {
  const suggest = (
    path: string,
    id: string,
    summary: string,
    about: string,
    body: (q: SuggestParams) => object,
  ) =>
    operation({
      path,
      query: reconcileSuggestQuery,
      notHere: 'suggestions read what is typed so far, in prefix',
      withoutSearch: true,
      doc: docOf(id, summary, about, 'Suggestions.', 'ReconcileSuggestions'),
      handler:
        () =>
        async ({ query, answer, base }) => {
          await answer(`${base} ${JSON.stringify(query)}`, () => ({ body: body(query) }));
        },
    });
  return [
    suggest(
      description.paths.suggestProperty,
      `reconcile${operationName}SuggestProperty`,
      `Reconcile ${description.type.name}: the properties a query may give, by prefix`,
      'The properties (`pid`) a query may give whose id or name starts with the prefix.',
      (query) => presentSuggestedProperties(description, query),
    ),
    suggest(
      description.paths.suggestType,
      `reconcile${operationName}SuggestType`,
      `Reconcile ${description.type.name}: the service's type, by prefix`,
      `The service's one type ("${description.type.id}") when its id or name starts with the prefix.`,
      (query) => presentSuggestedTypes(description, query),
    ),
    operation({
      path: description.paths.properties,
      query: reconcilePropertiesQuery,
      notHere: 'the property proposal takes type and limit',
      withoutSearch: true,
      doc: docOf(
        `reconcile${operationName}Properties`,
        `Reconcile ${description.type.name}: the columns a data extension may ask for`,
        `The data extension's property proposal (\`type\` ${description.type.id}; another type has none).`,
        'The proposed properties.',
        'ReconcilePropertyProposal',
      ),
      schemas: { ReconcilePropertyProposal: ReconcilePropertyProposalSchema },
      handler:
        () =>
        async ({ query, answer, base }) => {
          await answer(`${base} ${JSON.stringify(query)}`, () => ({
            body: presentProposedProperties(description, query),
          }));
        },
    }),
  ];
}

/** The preview card: HTML that OpenRefine frames. */
function previewOperation<S>(service: ServiceEntities<S>): Operation {
  const { description, operationName } = service;
  const responses = apiResponses(
    { description: 'The card.', schema: 'ReconcileManifest' },
    { '400': badRequest, '404': problem('No entity of the service has this id.') },
  );
  responses['200'] = { ...responses['200']!, content: { 'text/html': { schema: { type: 'string' } } } };
  return operation({
    path: description.paths.preview,
    query: reconcilePreviewQuery,
    notHere: 'the preview takes the id',
    doc: {
      operationId: `reconcile${operationName}Preview`,
      tags: ['reconcile'],
      summary: `Reconcile ${description.type.name}: a small HTML card of one entity`,
      description: 'For OpenRefine’s preview frame. Unlike every other answer it may be framed.',
      parameters: [ifNoneMatch, requestIdHeader],
      responses,
    },
    handler:
      (deps) =>
      async ({ ctx, query, answer, base }) => {
        ctx.set('Content-Security-Policy', PREVIEW_CONTENT_SECURITY_POLICY);
        await answer(`${base} ${query.id}`, async () => {
          const [found] = await service.byIds(deps, [query.id]);
          if (!found) {
            ctx.set('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy']);
            throw new NotFoundError('No entity of this service has this id.');
          }
          return fileRepresentation(
            Buffer.from(service.preview(found.source, base)),
            'text/html; charset=utf-8',
          );
        });
      },
  });
}

/** A service's operations, in the router's order (its literal paths before its root). */
export function reconcileOperations<S>(service: ServiceEntities<S>): Operation[] {
  return [
    suggestEntityOperation(service),
    ...describingOperations(service.description, service.operationName),
    previewOperation(service),
    rootOperation(service),
  ];
}
