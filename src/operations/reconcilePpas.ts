// /api/v1/reconcile/ppas: the PPA reconciliation service (W3C Reconciliation Service API 0.2, the version OpenRefine
// speaks): its root (the manifest, query batches by GET or form POST, data extension), the suggest services of
// entities, properties and types, the preview card and the property proposal. docs/reconciliation.md says how to
// use it from OpenRefine.
import { RECONCILE_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { SECURITY_HEADERS } from '../http/securityHeaders.js';
import {
  apiResponses,
  badRequest,
  ifNoneMatch,
  problem,
  requestIdHeader,
  type OpenApiResponse,
} from '../openapi/responses.js';
import {
  reconcilePreviewQuery,
  reconcilePropertiesQuery,
  reconcileSuggestQuery,
  serviceQuery,
  type ExtendQuery,
  type ReconcileQuery,
} from '../params/reconcile.js';
import {
  ReconcileExtensionSchema,
  ReconcileManifestSchema,
  ReconcilePropertyProposalSchema,
  ReconcileResultBatchSchema,
  ReconcileServiceAnswerSchema,
  ReconcileSuggestionsSchema,
} from '../present/reconcileBodies.js';
import { rankCandidates } from '../present/reconcileCandidates.js';
import {
  PPA_SERVICE,
  PPA_TYPE,
  ppaExtendValues,
  ppaFacts,
  ppaPreview,
  presentSuggestedPpas,
  sourcesOf,
} from '../present/reconcilePpas.js';
import {
  presentExtension,
  presentManifest,
  presentProposedProperties,
  presentResultBatch,
  presentSuggestedProperties,
  presentSuggestedTypes,
} from '../present/reconcileService.js';
import type { SuggestSource } from '../present/suggest.js';
import {
  buildPpasBySlugSearch,
  buildReconcilePpaSearch,
  type ReconcilePpaSource,
} from '../queries/reconcilePpasSearch.js';
import { buildSuggestSearch } from '../queries/suggestSearch.js';
import { fileRepresentation } from '../wire/representation.js';
import { operation, type OperationDeps } from './operation.js';

const paths = RECONCILE_PATHS.ppas;
const vocabulary = {
  queryProperties: PPA_SERVICE.queryProperties.map(({ id }) => id),
  extendProperties: PPA_SERVICE.extendProperties.map(({ id }) => id),
};
const rootQuery = serviceQuery(vocabulary);

/** What the reconciliation operations document alike. */
const docOf = (operationId: string, summary: string, description: string, ok: string, schema: string) => ({
  operationId,
  tags: ['reconcile'],
  summary,
  description,
  parameters: [ifNoneMatch, requestIdHeader],
  responses: apiResponses({ description: ok, schema }, { '400': badRequest }),
});

const ROOT_DESCRIPTION =
  'The PPA reconciliation service (W3C Reconciliation Service API 0.2): without `queries` or `extend`, its ' +
  'manifest; with `queries`, each query’s candidates (published, active PPAs), best first, scored from their ' +
  'features; with `extend`, the asked columns of the given PPAs. A batch counts one request against the rate ' +
  'limit. docs/reconciliation.md: adding it to OpenRefine, what `score` and `match` mean.';

/** The POST of the root: the same parameters in a form body. */
function formDoc(): {
  doc: { operationId: string; [field: string]: unknown; responses: Record<string, OpenApiResponse> };
} {
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
    doc: {
      operationId: 'reconcilePpasBatch',
      tags: ['reconcile'],
      summary: 'Reconcile PPAs: a query batch or a data extension in a form body',
      description: `${ROOT_DESCRIPTION} The form's fields are the GET's parameters (\`queries\` or \`extend\`).`,
      parameters: [requestIdHeader],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: { $ref: '#/components/schemas/ReconcileForm' },
          },
        },
      },
      responses,
    },
  };
}

async function resultBatch(deps: OperationDeps, queries: readonly ReconcileQuery[]) {
  // A query for another type has no candidates: it is not searched for.
  const searched = queries.filter((query) => !query.types || query.types.includes(PPA_TYPE.id));
  const responses =
    searched.length > 0
      ? await deps.search.msearch<ReconcilePpaSource>(searched.map(buildReconcilePpaSearch))
      : [];
  const candidates = queries.map((query) => {
    const response = responses[searched.indexOf(query)];
    return response ? rankCandidates(query, sourcesOf(response).map(ppaFacts), PPA_TYPE) : [];
  });
  return presentResultBatch(queries, candidates);
}

async function extension(deps: OperationDeps, extend: ExtendQuery, base: string) {
  const ids = [...new Set(extend.ids)];
  const found =
    ids.length > 0 ? sourcesOf(await deps.search.search<ReconcilePpaSource>(buildPpasBySlugSearch(ids))) : [];
  const bySlug = new Map(found.map((source) => [source.slug, source]));
  return presentExtension(PPA_SERVICE, extend, (id, property) => {
    const source = bySlug.get(id);
    return source ? ppaExtendValues(source, property, base) : [];
  });
}

export const reconcilePpas = operation({
  path: paths.root,
  query: rootQuery,
  notHere: 'the reconciliation service takes queries or extend',
  doc: docOf(
    'reconcilePpas',
    'Reconcile PPAs: the manifest, a query batch or a data extension',
    ROOT_DESCRIPTION,
    'The manifest, a result batch or an extension.',
    'ReconcileServiceAnswer',
  ),
  form: formDoc(),
  schemas: {
    ReconcileManifest: ReconcileManifestSchema,
    ReconcileResultBatch: ReconcileResultBatchSchema,
    ReconcileExtension: ReconcileExtensionSchema,
    ReconcileServiceAnswer: ReconcileServiceAnswerSchema,
    ReconcileForm: rootQuery.schema,
  },
  handler:
    (deps) =>
    async ({ query, answer, base }) => {
      await answer(`${base} ${JSON.stringify(query)}`, async () => {
        if (query.kind === 'batch') return { body: await resultBatch(deps, query.queries) };
        if (query.kind === 'extend') return { body: await extension(deps, query.extend, base) };
        return { body: presentManifest(PPA_SERVICE, base) };
      });
    },
});

export const reconcilePpasSuggestEntity = operation({
  path: paths.suggestEntity,
  query: reconcileSuggestQuery,
  notHere: 'suggestions read what is typed so far, in prefix',
  doc: docOf(
    'reconcilePpasSuggestEntity',
    'Reconcile PPAs: PPAs by the start of their name',
    'Published, active PPAs whose name starts with, or has a word starting with, the prefix (as /api/v1/ppas/' +
      'suggest finds them), from the cursor.',
    'Suggested PPAs.',
    'ReconcileSuggestions',
  ),
  schemas: { ReconcileSuggestions: ReconcileSuggestionsSchema },
  handler:
    (deps) =>
    async ({ query, answer, base }) => {
      await answer(`${base} ${JSON.stringify(query)}`, async () => {
        if (query.type !== undefined && query.type !== PPA_TYPE.id) return { body: { result: [] } };
        const search = buildSuggestSearch({ q: query.prefix, limit: query.cursor + query.limit });
        const response = await deps.search.search<SuggestSource>(search);
        const sources = response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
        return { body: presentSuggestedPpas(sources.slice(query.cursor)) };
      });
    },
});

export const reconcilePpasSuggestProperty = operation({
  path: paths.suggestProperty,
  query: reconcileSuggestQuery,
  notHere: 'suggestions read what is typed so far, in prefix',
  withoutSearch: true,
  doc: docOf(
    'reconcilePpasSuggestProperty',
    'Reconcile PPAs: the properties a query may give, by prefix',
    'The properties (`pid`) a query of the PPA service may give whose id or name starts with the prefix.',
    'Suggested properties.',
    'ReconcileSuggestions',
  ),
  handler:
    () =>
    async ({ query, answer, base }) => {
      await answer(`${base} ${JSON.stringify(query)}`, () => ({
        body: presentSuggestedProperties(PPA_SERVICE, query),
      }));
    },
});

export const reconcilePpasSuggestType = operation({
  path: paths.suggestType,
  query: reconcileSuggestQuery,
  notHere: 'suggestions read what is typed so far, in prefix',
  withoutSearch: true,
  doc: docOf(
    'reconcilePpasSuggestType',
    'Reconcile PPAs: the service’s type, by prefix',
    'The service’s one type ("ppa", Power Purchase Agreement) when its id or name starts with the prefix.',
    'Suggested types.',
    'ReconcileSuggestions',
  ),
  handler:
    () =>
    async ({ query, answer, base }) => {
      await answer(`${base} ${JSON.stringify(query)}`, () => ({
        body: presentSuggestedTypes(PPA_SERVICE, query),
      }));
    },
});

/** The preview is made to be framed by OpenRefine: it may be, and may style itself; it loads nothing. */
export const PREVIEW_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *";

export const reconcilePpasPreview = operation({
  path: paths.preview,
  query: reconcilePreviewQuery,
  notHere: 'the preview takes the id',
  doc: {
    operationId: 'reconcilePpasPreview',
    tags: ['reconcile'],
    summary: 'Reconcile PPAs: a small HTML card of one PPA',
    description:
      'For OpenRefine’s preview frame: the name (linked to the PPA), reference code, developer, technology, ' +
      'capacity, country and year. Unlike every other answer it may be framed.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: (() => {
      const responses = apiResponses(
        { description: 'The card.', schema: 'ReconcileManifest' },
        { '400': badRequest, '404': problem('No published, active PPA has this slug.') },
      );
      responses['200'] = {
        ...responses['200']!,
        content: { 'text/html': { schema: { type: 'string' } } },
      };
      return responses;
    })(),
  },
  handler:
    (deps) =>
    async ({ ctx, query, answer, base }) => {
      ctx.set('Content-Security-Policy', PREVIEW_CONTENT_SECURITY_POLICY);
      await answer(`${base} ${query.id}`, async () => {
        const [source] = sourcesOf(
          await deps.search.search<ReconcilePpaSource>(buildPpasBySlugSearch([query.id])),
        );
        if (!source) {
          ctx.set('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy']);
          throw new NotFoundError('No published, active PPA has this slug.');
        }
        return fileRepresentation(Buffer.from(ppaPreview(source, base)), 'text/html; charset=utf-8');
      });
    },
});

export const reconcilePpasProperties = operation({
  path: paths.properties,
  query: reconcilePropertiesQuery,
  notHere: 'the property proposal takes type and limit',
  withoutSearch: true,
  doc: docOf(
    'reconcilePpasProperties',
    'Reconcile PPAs: the columns a data extension may ask for',
    'The data extension’s property proposal: the columns of a PPA (`type` ppa; another type has none).',
    'The proposed properties.',
    'ReconcilePropertyProposal',
  ),
  schemas: { ReconcilePropertyProposal: ReconcilePropertyProposalSchema },
  handler:
    () =>
    async ({ query, answer, base }) => {
      await answer(`${base} ${JSON.stringify(query)}`, () => ({
        body: presentProposedProperties(PPA_SERVICE, query),
      }));
    },
});

/** The service's operations, in the router's order. */
export const RECONCILE_PPAS_OPERATIONS = [
  reconcilePpasSuggestEntity,
  reconcilePpasSuggestProperty,
  reconcilePpasSuggestType,
  reconcilePpasPreview,
  reconcilePpasProperties,
  reconcilePpas,
];
