// /api/v1/reconcile/parties (W3C Reconciliation Service API 0.2) over the real app and Elasticsearch on the shipped
// sample (a seeded, generated set): the reference names with one typo, a legal-form word added or removed, or
// accents dropped find their party in the top 3; match is never given to a wrong party; every body validates against
// the specification's schemas; OpenRefine's own requests replayed; the extension's figures against an oracle.
import { expect } from 'chai';
import { consortiumMembers, groupKey } from '../../indexContract/counterparties.js';
import { partyIdOf } from '../../indexContract/parties.js';
import { LEGAL_FORM_WORDS } from '../../src/matching/reconcileNames.js';
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
  features: { id: string; value: number | boolean }[];
}
type ResultBatch = Record<string, { result: Candidate[] }>;

const ROOT = '/api/v1/reconcile/parties';
type Role = 'developer' | 'offtaker' | 'procuring_entity';

interface OracleParty {
  id: string;
  name: string;
  spellings: Map<string, number>;
  roles: Set<Role>;
  slugs: Set<string>;
  capacity: number;
  guaranteed: number;
  countries: Map<string, number>;
}

/** The parties of the published, active sample PPAs, by the contract: one per group key, its commonest spelling. */
function oracleParties(): OracleParty[] {
  const parties = new Map<string, OracleParty>();
  for (const record of listed) {
    const named: [Role, string | null | undefined][] = [
      ...consortiumMembers(record.developer).map((name): [Role, string] => ['developer', name]),
      ['offtaker', record.offtaker?.name],
      ['procuring_entity', record.procurement?.procuring_entity],
    ];
    const seen = new Set<string>();
    for (const [role, name] of named) {
      if (!name || groupKey(name) === '') continue;
      const key = groupKey(name);
      let party = parties.get(key);
      if (!party) {
        party = {
          id: partyIdOf(name),
          name,
          spellings: new Map(),
          roles: new Set(),
          slugs: new Set(),
          capacity: 0,
          guaranteed: 0,
          countries: new Map(),
        };
        parties.set(key, party);
      }
      party.roles.add(role);
      const spelling = name.replace(/\s+/gu, ' ');
      if (!seen.has(`${key} ${spelling}`))
        party.spellings.set(spelling, (party.spellings.get(spelling) ?? 0) + 1);
      seen.add(`${key} ${spelling}`);
      if (party.slugs.has(record.slug)) continue;
      party.slugs.add(record.slug);
      party.capacity += record.capacity_mw;
      party.guaranteed += record.fiscal?.guaranteed_amount_usd ?? 0;
      if (record.country_code) {
        party.countries.set(record.country_code, (party.countries.get(record.country_code) ?? 0) + 1);
      }
    }
  }
  for (const party of parties.values()) {
    party.name = [...party.spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  }
  return [...parties.values()];
}

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

describe('/api/v1/reconcile/parties on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-reconcile-parties');
  const parties = oracleParties();
  const byId = new Map(parties.map((party) => [party.id, party]));

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
    for (const role of ['developer', 'offtaker', 'procuring_entity'] as const) {
      expect(parties.filter((party) => party.roles.has(role)).length, role).to.be.greaterThan(3);
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
      ...party.spellings.keys(),
      party.name.toUpperCase(),
      ` ${party.name.replace(/ /gu, '  ')} `,
      withTypo(party.name),
      legalFormSwapped(party.name),
      withoutAccents(party.name),
    ]);
    const answers = await reconcile(texts.map((query) => ({ query, limit: 25 })));
    let matches = 0;
    texts.forEach((text, i) => {
      const named = parties.find((party) => groupKey(party.name) === groupKey(text));
      for (const candidate of answers[i] ?? []) {
        expect(candidate.match, `${text} → ${candidate.id}`).to.equal(named?.id === candidate.id);
        if (candidate.match) matches += 1;
      }
    });
    expect(matches).to.be.at.least(parties.length * 3);
  });

  it('reads the role and country properties: they agree or halve the score, and a disagreeing one is no match', async () => {
    const party = parties.find((p) => p.countries.size > 0 && p.roles.size === 1)!;
    const [role] = [...party.roles];
    const other = (['developer', 'offtaker', 'procuring_entity'] as const).find((r) => r !== role)!;
    const [country] = [...party.countries.keys()];
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
    const ten = parties.filter((party) => party.roles.has('offtaker')).slice(0, 10);
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
    expect(await preview.text()).to.include(`${party.slugs.size}`);
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
      const oracle = byId.get(id)!;
      expect(rows[id], id).to.deep.equal({
        ppas: [{ int: oracle.slugs.size }],
        capacity_mw: [{ float: Math.round(oracle.capacity * 10) / 10 }],
        guaranteed_amount_usd: [{ float: Math.round(oracle.guaranteed) }],
        countries: [...oracle.countries]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .map(([code]) => ({ str: code })),
        roles: (['developer', 'offtaker', 'procuring_entity'] as const)
          .filter((role) => oracle.roles.has(role))
          .map((role) => ({ str: role })),
      });
    }
    expect(rows['no-such-party']).to.deep.equal(Object.fromEntries(columns.map((c) => [c, []])));
  });
});
