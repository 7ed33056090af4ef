// The reconciliation services' bodies as the OpenAPI document shows them (TypeBox, the document's dialect): the
// same shapes as the Reconciliation Service API 0.2's schemas (schemas/reconciliation/0.2/), narrowed to what these
// services send, so that a real answer checked against either one shows any drift.
import { record, text, Type } from '../wire/bodySchema.js';

const TypeSchema = record({ id: text('The type’s id.'), name: text('The type’s name.') });

const servicePath = record({
  service_url: text('The API’s base URL.'),
  service_path: text('The path under it.'),
});

export const ReconcileManifestSchema = record(
  {
    versions: Type.Array(Type.String(), { description: 'The specification versions spoken: "0.2".' }),
    name: text('The service’s name.'),
    identifierSpace: text('The URI the ids are in.'),
    schemaSpace: text('The URI of the properties’ ids.'),
    documentation: text('Where the API is documented.'),
    batchSize: Type.Integer({ minimum: 1, description: 'The most queries a batch may hold.' }),
    defaultTypes: Type.Array(TypeSchema, { description: 'The service’s one type.' }),
    view: record({ url: text('An entity’s page; {{id}} stands for its id.') }),
    preview: record({
      url: text('An entity’s preview card; {{id}} stands for its id.'),
      width: Type.Integer({ minimum: 1 }),
      height: Type.Integer({ minimum: 1 }),
    }),
    suggest: record({ entity: servicePath, property: servicePath, type: servicePath }),
    extend: record({
      propose_properties: servicePath,
      property_settings: Type.Array(Type.Object({}), { maxItems: 0 }),
    }),
  },
  'The service manifest (Reconciliation Service API 0.2).',
);

const FeatureSchema = record({
  id: text('name_similarity (0–1), or <pid>_match (true when the candidate agrees with that property).'),
  value: Type.Union([Type.Number(), Type.Boolean()]),
});

const CandidateSchema = record({
  id: text('The entity’s id.'),
  name: text('The entity’s name.'),
  score: Type.Number({
    minimum: 0,
    maximum: 100,
    description: '100 × name_similarity, halved for each given property the candidate does not agree with.',
  }),
  match: Type.Boolean({
    description:
      'The query is the entity’s name (or alias; a PPA’s reference code) as a group key, no other candidate’s, ' +
      'and no given property disagrees.',
  }),
  type: Type.Array(TypeSchema),
  description: text('A line about the entity.'),
  features: Type.Array(FeatureSchema),
});

export const ReconcileResultBatchSchema = Type.Object(
  {},
  {
    additionalProperties: record({ result: Type.Array(CandidateSchema, { maxItems: 25 }) }),
    description: 'Each query’s candidates, best first, under the query’s key.',
  },
);

export const ReconcileSuggestionsSchema = record(
  {
    result: Type.Array(
      Type.Object(
        {
          id: text(),
          name: text(),
          description: Type.Optional(text()),
          notable: Type.Optional(Type.Array(TypeSchema)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  'Entities, properties or types whose name starts with the prefix.',
);

export const ReconcilePropertyProposalSchema = record(
  {
    type: text('The type the properties are for.'),
    limit: Type.Integer({ minimum: 1 }),
    properties: Type.Array(record({ id: text(), name: text(), description: text() })),
  },
  'The columns a data extension may ask for.',
);

const ExtendValueSchema = Type.Union([
  record({ str: Type.String() }),
  record({ float: Type.Number() }),
  record({ int: Type.Integer() }),
  record({ id: Type.String(), name: Type.String() }),
]);

export const ReconcileExtensionSchema = record(
  {
    meta: Type.Array(record({ id: text(), name: text() })),
    rows: Type.Object(
      {},
      {
        additionalProperties: Type.Object({}, { additionalProperties: Type.Array(ExtendValueSchema) }),
        description: 'Each id asked, each property asked: its values (none: an empty list).',
      },
    ),
  },
  'A data extension (Reconciliation Service API 0.2).',
);

/** The root answers either a manifest, a result batch or an extension. */
export const ReconcileServiceAnswerSchema = Type.Union(
  [
    Type.Unsafe({ $ref: '#/components/schemas/ReconcileManifest' }),
    Type.Unsafe({ $ref: '#/components/schemas/ReconcileResultBatch' }),
    Type.Unsafe({ $ref: '#/components/schemas/ReconcileExtension' }),
  ],
  {
    description:
      'Without queries or extend: the manifest; with queries: a result batch; with extend: an extension.',
  },
);
