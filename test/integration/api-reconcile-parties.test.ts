// /api/v1/reconcile/parties (W3C Reconciliation Service API 0.2) over the real app and Elasticsearch, on the shipped
// sample plus a seeded set of namesakes that differ by a legal form, punctuation or accents only: the reference names
// with one typo, a legal-form word added or removed, or accents dropped find their party in the top 3; match is never
// given to a wrong party; every body validates against the specification's schemas; OpenRefine's own requests
// replayed; the extension's figures against the parties' oracle (test/support/partiesOracle.ts).
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { LEGAL_FORM_WORDS } from '../../src/matching/reconcileNames.js';
import {
  reconciliationProblems,
  type ReconciliationSchemaName,
} from '../../src/params/reconciliationSchemas.js';
import { roundTo } from '../../src/present/rounding.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { keyByHand, partiesByHand, type OracleParty } from '../support/partiesOracle.js';
import { ppaRecord } from '../support/ppaRecords.js';
import { indexSample } from '../support/sampleIndex.js';
import { records as sampleRecords } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface Candidate {
  id: string;
  name: string;
  score: number;
  match: boolean;
  features: { id: string; value: number | boolean }[];
}
type ResultBatch = Record<string, { result: Candidate[] }>;

const ROOT = '/api/v1/reconcile/parties';
type Role = 'developer' | 'offtaker' | 'procuring_entity';
const ROLES: readonly Role[] = ['developer', 'offtaker', 'procuring_entity'];

/**
 * Namesakes a wrong `match` would confuse: each pair differs by a legal form, punctuation or accents only, so
 * their comparable names are one and their group keys two (two parties).
 */
function seededRecords(): PpaRecord[] {
  const developers = [
    'Acme Power Ltd',
    'ACME POWER LIMITED',
    'Acme Power Holdings S.A.',
    'Açaí Energia S.A.',
    'Acai Energia SA',
    'Sun-Power GmbH',
    'SunPower GmbH',
    'Nordlys Kraft A.Ş.',
    'Pty Solar Co.',
  ];
  return developers.map((developer, i) =>
    ppaRecord(`reconcile-seed-${i}`, {
      developer,
      offtaker: {
        name: i % 2 === 0 ? 'Seeded Grid Authority' : 'Seeded Grid Authority Plc',
        type: 'state_utility',
      },
      country_code: i % 3 === 0 ? 'KE' : 'TZ',
      updated_at: '2026-01-01T00:00:00.000Z',
    }),
  );
}

const ALL = (): PpaRecord[] => [...sampleRecords, ...seededRecords()];

/** One typo: two inner letters of the longest word swapped. */
function withTypo(name: string): string {
  const words = name.split(' ');
  const longest = words.reduce((a, b) => ([...b].length > [...a].length ? b : a), '');
  const letters = [...longest];
  if (letters.length < 5) return `${name}x`;
  [letters[2], letters[3]] = [letters[3]!, letters[2]!];
  return words.map((word) => (word === longest ? letters.join('') : word)).join(' ');
}

/** A legal-form word removed when the name has one, else one added. */
function legalFormSwapped(name: string): string {
  const words = name.split(' ');
  const kept = words.filter((word) => !LEGAL_FORM_WORDS.has(word.toLowerCase().replace(/\./gu, '')));
  return kept.length < words.length && kept.length > 0 ? kept.join(' ') : `${name} Ltd.`;
}

/** Accents dropped, case kept. */
const withoutAccents = (name: string): string => name.normalize('NFKD').replace(/\p{M}/gu, '');

describe('/api/v1/reconcile/parties on the sample and a seeded set of namesakes', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-reconcile-parties');
  const oracle = partiesByHand(ALL());
  const parties: OracleParty[] = [...oracle.values()];
  let api: TestApp | undefined;
  let dir = '';
  const app = (): TestApp => api!;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ppa-reconcile-parties-'));
    const path = join(dir, 'records.ndjson');
    await writeFile(
      path,
      `${ALL()
        .map((record) => JSON.stringify(record))
        .join('\n')}\n`,
    );
    await indexSample(client, alias, path);
    api = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });
  after(async () => {
    await api?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

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

  /** Every query's candidates, in batches of 25. */
  async function reconcile(queries: object[]): Promise<Candidate[][]> {
    const results: Candidate[][] = [];
    for (let start = 0; start < queries.length; start += 25) {
      const chunk = queries.slice(start, start + 25);
      const body = JSON.stringify(Object.fromEntries(chunk.map((query, i) => [`q${i}`, query])));
      const answer = await call(ROOT, { ...form({ queries: body }), schema: 'resultBatch' });
      expect(answer.status, answer.text).to.equal(200);
      const batch = answer.body as ResultBatch;
      chunk.forEach((_, i) => results.push(batch[`q${i}`]?.result ?? []));
    }
    return results;
  }

  it('the oracle holds parties of every role', () => {
    for (const role of ROLES) {
      expect(parties.filter((party) => party.roles[role] > 0).length, role).to.be.greaterThan(3);
    }
    for (const name of ['Acme Power Ltd', 'ACME POWER LIMITED', 'Açaí Energia S.A.', 'Acai Energia SA']) {
      expect(
        parties.filter((party) => keyByHand(party.name) === keyByHand(name)),
        name,
      ).to.have.length(1);
    }
  });

  it('serves its manifest, valid against the 0.2 schema', async () => {
    const { status, body } = await call(ROOT, { schema: 'manifest' });
    expect(status).to.equal(200);
    expect(body).to.deep.include({
      versions: ['0.2'],
      identifierSpace: `${app().url}/api/v1/parties/`,
      view: { url: `${app().url}/api/v1/parties/{{id}}` },
    });
  });

  it('finds every reference name first as a match, and ≥ 95 % of its variants in the top 3', async () => {
    const exact = await reconcile(parties.map((party) => ({ query: party.name })));
    parties.forEach((party, i) => {
      expect(exact[i]?.[0], party.name).to.deep.include({ id: party.id, match: true, score: 100 });
    });
    const variants = parties.flatMap((party) =>
      [withTypo(party.name), legalFormSwapped(party.name), withoutAccents(party.name)].map((query) => ({
        party,
        query,
      })),
    );
    const answers = await reconcile(variants.map(({ query }) => ({ query })));
    const missed = variants.filter(
      ({ party }, i) => !(answers[i] ?? []).slice(0, 3).some((candidate) => candidate.id === party.id),
    );
    expect(variants.length).to.be.greaterThan(150);
    expect(1 - missed.length / variants.length, missed.map(({ query }) => query).join('; ')).to.be.at.least(
      0.95,
    );
  });

  it('never says match to a wrong party: only to the one whose name or alias the query is, as a group key', async () => {
    const texts = parties.flatMap((party) => [
      ...party.aliases.map((alias) => alias.name),
      party.name.toUpperCase(),
      ` ${party.name.replace(/ /gu, '  ')} `,
      withTypo(party.name),
      legalFormSwapped(party.name),
      withoutAccents(party.name),
    ]);
    const answers = await reconcile(texts.map((query) => ({ query, limit: 25 })));
    let matches = 0;
    texts.forEach((text, i) => {
      const named = parties.find((party) => keyByHand(party.name) === keyByHand(text));
      for (const candidate of answers[i] ?? []) {
        expect(candidate.match, `${text} → ${candidate.id}`).to.equal(named?.id === candidate.id);
        if (candidate.match) matches += 1;
      }
    });
    expect(matches).to.be.at.least(parties.length * 3);
  });

  it('tells namesakes apart: the same comparable name scores 100 for both, match only for the exact spelling', async () => {
    const idOf = (name: string) => parties.find((party) => keyByHand(party.name) === keyByHand(name))!.id;
    const [bare, ltd, limited, accented] = await reconcile([
      { query: 'Acme Power' },
      { query: 'acme power ltd' },
      { query: 'Acme  Power Limited' },
      { query: 'Acai Energia S.A.' },
    ]);
    const top = (candidates: Candidate[] | undefined) =>
      (candidates ?? []).filter((candidate) => candidate.score === 100).map((candidate) => candidate.id);
    expect(top(bare)).to.have.members([idOf('Acme Power Ltd'), idOf('ACME POWER LIMITED')]);
    expect(bare?.some((candidate) => candidate.match)).to.equal(false);
    expect(ltd?.filter((c) => c.match).map((c) => c.id)).to.deep.equal([idOf('Acme Power Ltd')]);
    expect(limited?.filter((c) => c.match).map((c) => c.id)).to.deep.equal([idOf('ACME POWER LIMITED')]);
    expect(top(accented)).to.include.members([idOf('Açaí Energia S.A.'), idOf('Acai Energia SA')]);
    expect(accented?.filter((c) => c.match).map((c) => c.id)).to.deep.equal([idOf('Açaí Energia S.A.')]);
  });

  it('reads the role and country properties: they agree or halve the score, and a disagreeing one is no match', async () => {
    const party = parties.find(
      (p) => p.countries.length > 0 && ROLES.filter((r) => p.roles[r] > 0).length === 1,
    )!;
    const role = ROLES.find((r) => party.roles[r] > 0)!;
    const other = ROLES.find((r) => r !== role)!;
    const [country] = party.countries;
    const [agreeing, disagreeing, byName] = await reconcile([
      {
        query: party.name,
        properties: [
          { pid: 'role', v: role },
          { pid: 'country', v: country },
        ],
      },
      { query: party.name, properties: [{ pid: 'role', v: other }] },
      {
        query: party.name,
        properties: [
          { pid: 'role', v: other.replace('_', ' ') },
          { pid: 'country', v: 'ZZ' },
        ],
      },
    ]);
    expect(agreeing?.[0]).to.deep.include({ id: party.id, match: true, score: 100 });
    expect(agreeing?.[0]?.features).to.deep.equal([
      { id: 'name_similarity', value: 1 },
      { id: 'role_match', value: true },
      { id: 'country_match', value: true },
    ]);
    const wrongRole = disagreeing?.find((candidate) => candidate.id === party.id);
    expect(wrongRole).to.deep.include({ match: false, score: 50 });
    expect(byName?.find((candidate) => candidate.id === party.id)).to.deep.include({
      match: false,
      score: 25,
    });
  });

  it('replays OpenRefine: manifest, a batch of 10 by POST with a type and a property, suggest, preview, extend', async () => {
    const manifest = (await call(ROOT, { schema: 'manifest' })).body as {
      suggest: Record<'entity' | 'property' | 'type', { service_path: string }>;
      extend: { propose_properties: { service_path: string } };
      preview: { url: string };
    };
    const ten = parties.filter((party) => party.roles.offtaker > 0).slice(0, 10);
    const answers = await reconcile(
      ten.map((party) => ({
        query: party.name,
        type: 'party',
        properties: [{ pid: 'role', v: 'offtaker' }],
      })),
    );
    ten.forEach((party, i) => {
      expect(answers[i]?.[0], party.name).to.deep.include({ id: party.id, match: true });
    });

    const party = ten[0]!;
    const prefix = party.name.split(' ')[0]!.slice(0, 4);
    const entities = await call(
      `${manifest.suggest.entity.service_path}?prefix=${encodeURIComponent(prefix)}`,
      {
        schema: 'suggestEntities',
      },
    );
    expect((entities.body as { result: { id: string }[] }).result.map((e) => e.id)).to.include(party.id);
    const properties = await call(`${manifest.suggest.property.service_path}?prefix=ro`, {
      schema: 'suggestProperties',
    });
    expect((properties.body as { result: { id: string }[] }).result.map((p) => p.id)).to.deep.equal(['role']);
    const types = await call(`${manifest.suggest.type.service_path}?prefix=part`, { schema: 'suggestTypes' });
    expect((types.body as { result: { id: string }[] }).result.map((t) => t.id)).to.deep.equal(['party']);

    const preview = await fetch(manifest.preview.url.replace('{{id}}', encodeURIComponent(party.id)));
    expect([preview.status, preview.headers.get('content-type')]).to.deep.equal([
      200,
      'text/html; charset=utf-8',
    ]);
    expect(await preview.text()).to.include(`<tr><th>PPAs</th><td>${party.ppas}</td></tr>`);
    const unknown = await call(`${ROOT}/preview?id=no-such-party`);
    expect(unknown.status).to.equal(404);

    const proposal = await call(`${manifest.extend.propose_properties.service_path}?type=party`, {
      schema: 'propertyProposal',
    });
    const columns = (proposal.body as { properties: { id: string }[] }).properties.map((p) => p.id);
    expect(columns).to.deep.equal(['ppas', 'capacity_mw', 'guaranteed_amount_usd', 'countries', 'roles']);
    const ids = [...parties.slice(0, 6).map((p) => p.id), 'no-such-party'];
    const extension = await call(ROOT, {
      ...form({ extend: JSON.stringify({ ids, properties: columns.map((id) => ({ id })) }) }),
      schema: 'extendResponse',
    });
    const { rows } = extension.body as { rows: Record<string, Record<string, unknown[]>> };
    for (const id of ids.slice(0, 6)) {
      const expected = oracle.get(id)!;
      expect(rows[id], id).to.deep.equal({
        ppas: [{ int: expected.ppas }],
        capacity_mw: [{ float: roundTo(expected.capacity_mw, 1) }],
        guaranteed_amount_usd: [{ float: roundTo(expected.guaranteed_amount_usd, 0) }],
        countries: expected.countries.map((code) => ({ str: code })),
        roles: ROLES.filter((role) => expected.roles[role] > 0).map((role) => ({ str: role })),
      });
    }
    expect(rows['no-such-party']).to.deep.equal(Object.fromEntries(columns.map((c) => [c, []])));
  });
});
