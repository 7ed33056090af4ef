// /api/v1/reconcile/ppas (W3C Reconciliation Service API 0.2) over the real app and Elasticsearch on the shipped
// sample: every body checked against the specification's own schemas and the OpenAPI document, the contract's match
// rule against an oracle, the batch bounds, the methods, and OpenRefine's own requests replayed.
import { expect } from 'chai';
import { groupKey } from '../../indexContract/counterparties.js';
import { foldText } from '../../indexContract/text/fold.js';
import { MAX_FORM_BODY_BYTES } from '../../src/http/formBody.js';
import {
  reconciliationProblems,
  type ReconciliationSchemaName,
} from '../../src/params/reconciliationSchemas.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { listed } from '../support/sampleOracle.js';

interface Candidate {
  id: string;
  name: string;
  score: number;
  match: boolean;
  type: { id: string; name: string }[];
  description: string;
  features: { id: string; value: number | boolean }[];
}
type ResultBatch = Record<string, { result: Candidate[] }>;

const ROOT = '/api/v1/reconcile/ppas';

/** One typo: two inner letters of the longest word swapped. */
function withTypo(name: string): string {
  const words = name.split(' ');
  const longest = words.reduce((a, b) => ([...b].length > [...a].length ? b : a), '');
  const letters = [...longest];
  if (letters.length < 5) return name;
  [letters[2], letters[3]] = [letters[3]!, letters[2]!];
  return words.map((word) => (word === longest ? letters.join('') : word)).join(' ');
}

/** The sample PPAs named by a text: its group key equals their project name's or reference code's. */
const namedBy = (text: string) =>
  listed.filter(
    (record) =>
      groupKey(record.project_name) === groupKey(text) || groupKey(record.reference_code) === groupKey(text),
  );

describe('/api/v1/reconcile/ppas on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-reconcile-ppas');

  async function call(
    path: string,
    init: RequestInit & { schema?: ReconciliationSchemaName } = {},
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
    const response = await fetch(`${app().url}${path}`, init);
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('json') ?? false;
    const body = json && text ? (JSON.parse(text) as unknown) : text;
    if (response.status < 500) {
      assertMatchesOpenApi(path, response.status, body, {
        method: init.method ?? 'GET',
        headers: response.headers,
        contentType: response.headers.get('content-type'),
      });
    }
    if (init.schema && response.status === 200) {
      expect(reconciliationProblems(init.schema, body), `${path}: 0.2 ${init.schema}`).to.deep.equal([]);
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams(fields).toString(),
  });

  async function reconcile(queries: Record<string, object>): Promise<ResultBatch> {
    const answer = await call(ROOT, { ...form({ queries: JSON.stringify(queries) }), schema: 'resultBatch' });
    expect(answer.status, answer.text).to.equal(200);
    return answer.body as ResultBatch;
  }

  it('serves its manifest without queries, valid against the 0.2 schema', async () => {
    const { status, body } = await call(ROOT, { schema: 'manifest' });
    expect(status).to.equal(200);
    const manifest = body as Record<string, unknown> & { view: { url: string }; preview: { url: string } };
    expect(manifest.versions).to.deep.equal(['0.2']);
    expect(manifest.defaultTypes).to.deep.equal([{ id: 'ppa', name: 'Power Purchase Agreement' }]);
    expect(manifest.view.url).to.equal(`${app().url}/api/v1/ppas/{{id}}`);
    expect(manifest.preview.url).to.equal(`${app().url}${ROOT}/preview?id={{id}}`);
    expect(manifest.identifierSpace).to.equal(`${app().url}/api/v1/ppas/`);
    expect(Object.keys(manifest)).to.include.members(['schemaSpace', 'suggest', 'extend']);
  });

  it('finds each name and reference code first as a match; a name with a typo or a legal form is no match', async () => {
    const sample = listed.filter((record) => namedBy(record.project_name).length === 1).slice(0, 20);
    const queries: Record<string, object> = {};
    sample.forEach((record, i) => {
      queries[`name${i}`] = { query: record.project_name };
      queries[`code${i}`] = { query: record.reference_code.toLowerCase() };
      queries[`typo${i}`] = { query: withTypo(record.project_name) };
    });
    const first = await reconcile(Object.fromEntries(Object.entries(queries).slice(0, 50)));
    const second = await reconcile(Object.fromEntries(Object.entries(queries).slice(50)));
    const batch = { ...first, ...second };
    sample.forEach((record, i) => {
      for (const kind of ['name', 'code']) {
        const [top] = batch[`${kind}${i}`]?.result ?? [];
        expect([top?.id, top?.match, top?.score], `${kind} of ${record.slug}`).to.deep.equal([
          record.slug,
          true,
          100,
        ]);
      }
      const typo = batch[`typo${i}`]?.result ?? [];
      expect(
        typo.slice(0, 3).map((candidate) => candidate.id),
        withTypo(record.project_name),
      ).to.include(record.slug);
      if (groupKey(withTypo(record.project_name)) !== groupKey(record.project_name)) {
        expect(typo.some((candidate) => candidate.match)).to.equal(false);
      }
    });
  });

  it('never says match to a wrong candidate, and says it only by the contract’s rule', async () => {
    const texts = listed
      .slice(0, 48)
      .flatMap((record) => [
        record.project_name,
        `${record.project_name} Ltd`,
        foldText(record.project_name).toUpperCase(),
        record.developer,
      ]);
    // A name two PPAs share, when the sample has one: never a match.
    const shared = listed.find((record) => namedBy(record.project_name).length > 1);
    if (shared) texts.push(shared.project_name);
    let matches = 0;
    for (let start = 0; start < texts.length; start += 25) {
      const chunk = texts.slice(start, start + 25);
      const batch = await reconcile(
        Object.fromEntries(chunk.map((query, i) => [`q${i}`, { query, limit: 25 }])),
      );
      chunk.forEach((text, i) => {
        const named = namedBy(text);
        for (const candidate of batch[`q${i}`]?.result ?? []) {
          const expected = named.length === 1 && named[0]?.slug === candidate.id;
          expect(candidate.match, `${text} → ${candidate.id}`).to.equal(expected);
          if (candidate.match) matches += 1;
        }
      });
    }
    expect(matches, 'some queries are matches').to.be.greaterThan(40);
  });

  it('scores from the features: 100 × name_similarity, halved by a property the candidate does not agree with', async () => {
    const record = listed.find((r) => r.country_code !== null && namedBy(r.project_name).length === 1)!;
    const other = listed.find((r) => r.country_code !== null && r.country_code !== record.country_code)!;
    const batch = await reconcile({
      right: { query: record.project_name, properties: [{ pid: 'country', v: record.country_code }] },
      wrong: { query: record.project_name, properties: [{ pid: 'country', v: other.country_code }] },
      year: {
        query: record.project_name,
        properties: [
          { pid: 'year', v: String(record.financial_close_year ?? 1900) },
          { pid: 'reference_code', v: record.reference_code },
          { pid: 'technology', v: record.technology },
          { pid: 'developer', v: `${record.developer} Ltd.` },
        ],
      },
    });
    const [right] = batch.right?.result ?? [];
    expect(right).to.deep.include({ id: record.slug, match: true, score: 100 });
    expect(right?.features).to.deep.equal([
      { id: 'name_similarity', value: 1 },
      { id: 'country_match', value: true },
    ]);
    const wrong = batch.wrong?.result.find((candidate) => candidate.id === record.slug);
    expect(wrong).to.deep.include({ match: false, score: 50 });
    expect(wrong?.features).to.deep.equal([
      { id: 'name_similarity', value: 1 },
      { id: 'country_match', value: false },
    ]);
    for (const candidate of [...(batch.right?.result ?? []), ...(batch.wrong?.result ?? [])]) {
      const similarity = Number(candidate.features[0]?.value);
      const halved = candidate.features.filter((feature) => feature.value === false).length;
      expect(candidate.score, candidate.id).to.equal(Math.round(1000 * similarity * 0.5 ** halved) / 10);
    }
    const [year] = batch.year?.result ?? [];
    expect(year?.id).to.equal(record.slug);
    expect(year?.match).to.equal(record.financial_close_year !== null);
  });

  it('answers a batch by GET as by POST, and a query for another type with no candidates', async () => {
    const record = listed[0]!;
    const queries = JSON.stringify({
      a: { query: record.project_name, limit: 2 },
      b: { query: 'x', type: 'party' },
    });
    const get = await call(`${ROOT}?queries=${encodeURIComponent(queries)}`, { schema: 'resultBatch' });
    const post = await call(ROOT, { ...form({ queries }), schema: 'resultBatch' });
    expect(get.status).to.equal(200);
    expect(post.body).to.deep.equal(get.body);
    const batch = get.body as ResultBatch;
    expect(batch.a?.result.length).to.be.within(1, 2);
    expect(batch.b).to.deep.equal({ result: [] });
  });

  it('refuses a malformed batch with a 400 naming queries', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`q${i}`, { query: 'solar' }]));
    for (const queries of [
      'not json',
      '[]',
      '{"q0":{"query":"solar","foo":1}}',
      JSON.stringify(tooMany),
      JSON.stringify({ q0: { query: 'x'.repeat(201) } }),
      JSON.stringify({ q0: { query: '   ' } }),
      JSON.stringify({ q0: { query: 'solar', limit: 26 } }),
      JSON.stringify({ q0: { query: 'solar', limit: 0 } }),
      JSON.stringify({ q0: { query: 'solar', properties: [{ pid: 'role', v: 'developer' }] } }),
    ]) {
      const answer = await call(ROOT, form({ queries }));
      expect(answer.status, queries.slice(0, 60)).to.equal(400);
      const names = (answer.body as { invalid_params: { name: string }[] }).invalid_params.map((p) => p.name);
      expect(names, queries.slice(0, 60)).to.deep.equal(names.map(() => 'queries'));
    }
    const extend = await call(ROOT, form({ extend: '{"ids":["a"],"properties":[{"id":"colour"}]}' }));
    expect(extend.status).to.equal(400);
  });

  it('bounds the body like a query string: 413 past it, 415 for another media type', async () => {
    const big = await call(ROOT, form({ queries: 'x'.repeat(MAX_FORM_BODY_BYTES) }));
    expect(big.status).to.equal(413);
    const json = await call(ROOT, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q0":{"query":"solar"}}',
    });
    expect(json.status).to.equal(415);
  });

  it('takes POST on its root only; Allow and the preflight say so; every other path stays GET, HEAD, OPTIONS', async () => {
    const put = await call(ROOT, { method: 'PUT', body: 'x' });
    expect([put.status, put.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD, OPTIONS, POST']);
    const preflight = await fetch(`${app().url}${ROOT}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://refine.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET, HEAD, OPTIONS, POST');
    for (const path of ['/api/v1/ppas', `${ROOT}/suggest/entity`, `${ROOT}/preview`]) {
      const post = await fetch(`${app().url}${path}`, form({ prefix: 'a' }));
      expect([post.status, post.headers.get('allow')], path).to.deep.equal([405, 'GET, HEAD, OPTIONS']);
    }
    const answer = await fetch(`${app().url}${ROOT}`, form({ queries: '{"q":{"query":"solar"}}' }));
    expect(answer.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('counts a batch as one request against the rate limit', async () => {
    const remaining = async (init: RequestInit = {}) =>
      Number((await fetch(`${app().url}${ROOT}`, init)).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    const queries = Object.fromEntries(
      listed.slice(0, 50).map((r, i) => [`q${i}`, { query: r.project_name }]),
    );
    const after = await remaining(form({ queries: JSON.stringify(queries) }));
    expect(after).to.equal(before - 1);
  });

  it('replays OpenRefine: manifest, a batch of 10 by POST with a type and a property, suggest, preview, extend', async () => {
    const manifest = (await call(ROOT, { schema: 'manifest' })).body as {
      suggest: Record<'entity' | 'property' | 'type', { service_url: string; service_path: string }>;
      extend: { propose_properties: { service_url: string; service_path: string } };
      preview: { url: string };
    };
    const ten = listed.filter((record) => record.country_code !== null).slice(0, 10);
    const queries = Object.fromEntries(
      ten.map((record, i) => [
        `q${i}`,
        { query: record.project_name, type: 'ppa', properties: [{ pid: 'country', v: record.country_code }] },
      ]),
    );
    const batch = await reconcile(queries);
    ten.forEach((record, i) => {
      const [top] = batch[`q${i}`]?.result ?? [];
      expect(top?.id, record.project_name).to.equal(record.slug);
      expect(top?.type).to.deep.equal([{ id: 'ppa', name: 'Power Purchase Agreement' }]);
      expect(top?.features.find((feature) => feature.id === 'country_match')?.value).to.equal(true);
    });

    const { entity, property, type } = manifest.suggest;
    const record = ten[0]!;
    const prefix = record.project_name.split(' ')[0] ?? '';
    const entities = await call(`${entity.service_path}?prefix=${encodeURIComponent(prefix)}&type=ppa`, {
      schema: 'suggestEntities',
    });
    expect(entity.service_url).to.equal(app().url);
    const suggested = (entities.body as { result: { id: string; name: string }[] }).result;
    expect(suggested.length).to.be.greaterThan(0);
    for (const item of suggested) expect(foldText(item.name)).to.include(foldText(prefix).slice(0, 3));
    const properties = await call(`${property.service_path}?prefix=coun`, { schema: 'suggestProperties' });
    expect((properties.body as { result: { id: string }[] }).result.map((p) => p.id)).to.deep.equal([
      'country',
    ]);
    const types = await call(`${type.service_path}?prefix=Power`, { schema: 'suggestTypes' });
    expect((types.body as { result: { id: string }[] }).result.map((t) => t.id)).to.deep.equal(['ppa']);

    const preview = await fetch(manifest.preview.url.replace('{{id}}', encodeURIComponent(record.slug)));
    expect(preview.status).to.equal(200);
    expect(preview.headers.get('content-type')).to.match(/^text\/html/u);
    expect(preview.headers.get('content-security-policy')).to.include('frame-ancestors *');
    expect(await preview.text()).to.include(record.reference_code);

    const proposal = await call(`${manifest.extend.propose_properties.service_path}?type=ppa`, {
      schema: 'propertyProposal',
    });
    const columns = (proposal.body as { properties: { id: string }[] }).properties.map((p) => p.id);
    expect(columns).to.deep.equal([
      'capacity_mw',
      'technology',
      'country',
      'developer',
      'year',
      'tariff',
      'guaranteed_amount_usd',
      'url',
    ]);
    const ids = [...ten.slice(0, 3).map((r) => r.slug), 'no-such-ppa'];
    const extension = await call(ROOT, {
      ...form({ extend: JSON.stringify({ ids, properties: columns.map((id) => ({ id })) }) }),
      schema: 'extendResponse',
    });
    expect(extension.status).to.equal(200);
    const { meta, rows } = extension.body as {
      meta: { id: string; name: string }[];
      rows: Record<string, Record<string, unknown[]>>;
    };
    expect(meta.map((column) => column.id)).to.deep.equal(columns);
    for (const r of ten.slice(0, 3)) {
      expect(rows[r.slug]).to.deep.equal({
        capacity_mw: [{ float: r.capacity_mw }],
        technology: [{ str: r.technology }],
        country: r.country_code === null ? [] : [{ str: r.country_code }],
        developer: [{ str: r.developer }],
        year: r.financial_close_year === null ? [] : [{ int: r.financial_close_year }],
        tariff: [{ str: r.tariff }],
        guaranteed_amount_usd:
          r.fiscal?.guaranteed_amount_usd == null ? [] : [{ float: r.fiscal.guaranteed_amount_usd }],
        url: [{ str: `${app().url}/api/v1/ppas/${r.slug}` }],
      });
    }
    expect(Object.values(rows['no-such-ppa'] ?? {}).every((values) => values.length === 0)).to.equal(true);
  });
});
