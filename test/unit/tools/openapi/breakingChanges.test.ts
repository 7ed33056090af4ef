import { expect } from 'chai';
import { buildOpenApiSpec } from '../../../../src/operations/openApi.js';
import { breakingChanges, formatBreakingChange } from '../../../../tools/openapi/breakingChanges.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- documents edited by path

/** A small OpenAPI 3.1 document shaped as the API's: GET and HEAD with the same parameters (each its own), bodies by $ref. */
function document(): Json {
  const parameters = [
    { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 100 } },
    { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['name', 'recent'] } },
    {
      name: 'tags',
      in: 'query',
      required: false,
      schema: { type: 'array', items: { type: 'string', maxLength: 50 } },
    },
  ];
  const ok = {
    description: 'A page.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1.0.0' },
    paths: {
      '/items': {
        get: { operationId: 'list', parameters, responses: { '200': ok } },
        head: {
          operationId: 'listHead',
          parameters: structuredClone(parameters),
          responses: { '200': { description: 'A page.' } },
        },
      },
      '/health': { get: { operationId: 'health', responses: { '200': { description: 'Live.' } } } },
    },
    components: {
      schemas: {
        Page: {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
        },
        Item: {
          type: 'object',
          required: ['id', 'url'],
          properties: {
            id: { type: 'string' },
            url: { type: 'string' },
            capacity: { type: 'number', minimum: 0 },
            year: { type: ['integer', 'null'] },
          },
        },
      },
    },
  };
}

const params = (doc: Json): Json[] => [
  doc.paths['/items'].get.parameters,
  doc.paths['/items'].head.parameters,
];
const param = (doc: Json, name: string) => (edit: (parameter: Json) => void) => {
  for (const list of params(doc)) edit(list.find((parameter: Json) => parameter.name === name));
};
const item = (doc: Json) => doc.components.schemas.Item;

/** The breaking changes, a line each, after `edit` of a copy of document(). */
function breaksAfter(edit: (doc: Json) => void): string[] {
  const after = structuredClone(document());
  edit(after);
  return breakingChanges(document(), after).map(formatBreakingChange);
}

describe('openapi: breaking changes between two documents', () => {
  it('finds none between the API’s document and itself', function () {
    this.timeout(30_000);
    expect(breakingChanges(buildOpenApiSpec(), buildOpenApiSpec())).to.deep.equal([]);
  });

  it('a removed path, operation, parameter or response', () => {
    expect(breaksAfter((d) => delete d.paths['/health'])).to.deep.equal(['GET /health: removed']);
    expect(breaksAfter((d) => delete d.paths['/items'].head)).to.deep.equal(['HEAD /items: removed']);
    expect(breaksAfter((d) => params(d).forEach((list) => list.splice(0, 1)))).to.deep.equal([
      'GET, HEAD /items query parameter `q`: removed',
    ]);
    expect(breaksAfter((d) => delete d.paths['/items'].get.responses['200'])).to.deep.equal([
      'GET /items response 200: removed',
    ]);
  });

  it('a parameter newly required, or a required one added (an optional one is not a break)', () => {
    expect(breaksAfter((d) => param(d, 'q')((p) => (p.required = true)))).to.deep.equal([
      'GET, HEAD /items query parameter `q`: now required',
    ]);
    const token = (required: boolean) => (d: Json) =>
      params(d).forEach((list) =>
        list.push({ name: 'token', in: 'query', required, schema: { type: 'string' } }),
      );
    expect(breaksAfter(token(true))).to.deep.equal([
      'GET, HEAD /items query parameter `token`: added, required',
    ]);
    expect(breaksAfter(token(false))).to.deep.equal([]);
  });

  it('a narrowed parameter: its type, a pattern, a lower maxLength, a range or an enum narrowed', () => {
    const narrowed = (name: string, edit: (schema: Json) => void) =>
      breaksAfter((d) => param(d, name)((p) => edit(p.schema)));
    expect(narrowed('per_page', (s) => (s.type = 'string'))).to.deep.equal([
      'GET, HEAD /items query parameter `per_page`: type integer → string',
    ]);
    expect(narrowed('q', (s) => (s.type = 'integer'))).to.deep.equal([
      'GET, HEAD /items query parameter `q`: type string → integer',
    ]);
    expect(narrowed('q', (s) => (s.pattern = '^[a-z]+$'))).to.deep.equal([
      'GET, HEAD /items query parameter `q`: pattern "^[a-z]+$" added',
    ]);
    expect(narrowed('q', (s) => (s.maxLength = 50))).to.deep.equal([
      'GET, HEAD /items query parameter `q`: maxLength 100 → 50',
    ]);
    expect(narrowed('per_page', (s) => (s.maximum = 50))).to.deep.equal([
      'GET, HEAD /items query parameter `per_page`: maximum 100 → 50',
    ]);
    expect(narrowed('per_page', (s) => (s.minimum = 5))).to.deep.equal([
      'GET, HEAD /items query parameter `per_page`: minimum 1 → 5',
    ]);
    expect(narrowed('sort', (s) => (s.enum = ['recent']))).to.deep.equal([
      'GET, HEAD /items query parameter `sort`: enum value "name" removed',
    ]);
    expect(narrowed('tags', (s) => (s.items.maxLength = 20))).to.deep.equal([
      'GET, HEAD /items query parameter `tags[]`: maxLength 50 → 20',
    ]);
  });

  it('a widened parameter is not a break', () => {
    const widened = (name: string, edit: (schema: Json) => void) =>
      breaksAfter((d) => param(d, name)((p) => edit(p.schema)));
    expect(widened('q', (s) => (s.maxLength = 200))).to.deep.equal([]);
    expect(widened('per_page', (s) => (s.maximum = 500))).to.deep.equal([]);
    expect(widened('per_page', (s) => (s.type = 'number'))).to.deep.equal([]);
    expect(widened('sort', (s) => s.enum.push('oldest'))).to.deep.equal([]);
    expect(widened('q', (s) => (s.type = ['string', 'null']))).to.deep.equal([]);
  });

  it('a removed response field, optional or required, and a required one made optional', () => {
    expect(breaksAfter((d) => delete item(d).properties.capacity)).to.deep.equal([
      'GET /items response 200 (application/json) field `data[].capacity`: removed',
    ]);
    expect(breaksAfter((d) => (item(d).required = ['id']))).to.deep.equal([
      'GET /items response 200 (application/json) field `data[]`: `url` no longer required',
    ]);
  });

  it('a response field of another type, or one that may now be null; a narrower one is not a break', () => {
    expect(breaksAfter((d) => (item(d).properties.id = { type: 'integer' }))).to.deep.equal([
      'GET /items response 200 (application/json) field `data[].id`: type string → integer',
    ]);
    expect(breaksAfter((d) => (item(d).properties.capacity.type = ['number', 'null']))).to.deep.equal([
      'GET /items response 200 (application/json) field `data[].capacity`: type number → number|null',
    ]);
    expect(breaksAfter((d) => (item(d).properties.year.type = ['string', 'null']))).to.deep.equal([
      'GET /items response 200 (application/json) field `data[].year`: type integer|null → string|null',
    ]);
    expect(breaksAfter((d) => (item(d).properties.year.type = 'integer'))).to.deep.equal([]);
  });

  it('names each break by what a CHANGELOG entry may name: the parameter, the field, or the path', () => {
    const after = structuredClone(document());
    delete after.paths['/health'];
    delete item(after).properties.capacity;
    param(after, 'q')((p) => (p.schema.maxLength = 10));
    const names = breakingChanges(document(), after).map((change) => change.names);
    expect(names).to.deep.equal([['q'], ['data[].capacity', 'capacity'], ['/health']]);
  });

  it('leaves out what changes only words: descriptions, summaries, the version', () => {
    expect(
      breaksAfter((d) => {
        d.info.version = '2.0.0';
        d.paths['/items'].get.summary = 'Items.';
        param(d, 'q')((p) => (p.description = 'Words.'));
      }),
    ).to.deep.equal([]);
  });
});
