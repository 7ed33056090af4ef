// Parties through the real app (issue 75), against an oracle written in plain JavaScript from the contract
// (test/support/partiesOracle.ts): the sample plus a seeded set of spelling variants (case, accents, extra spaces),
// consortia and shared offtakers, indexed with the real reindex. Equal to the oracle, field by field: every party of
// the list and of its page (ids, names, aliases, roles, figures, countries, years, partners), the party filter's
// PPAs, the searches by name, role and country, the orders and a cursor walk; ids unique and the same after a
// reindex; OCDS's party ids are the same; bad input is a 400 naming the parameter.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { roundTo } from '../../src/present/rounding.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import {
  keyByHand,
  partiesByHand,
  partyIdByHand,
  topPartners,
  type OracleParty,
} from '../support/partiesOracle.js';
import { paramNames, ppasApi, type Problem } from '../support/ppasApi.js';
import { ppaRecord } from '../support/ppaRecords.js';
import { indexSample } from '../support/sampleIndex.js';
import { records as sampleRecords } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface PartyItem {
  id: string;
  name: string;
  roles: Record<string, number>;
  ppas: number;
  capacity_mw: number;
  annual_payment_obligation_usd: number;
  guaranteed_amount_usd: number;
  ppas_with_disclosed_amounts: number;
  countries: string[];
  url: string;
}
interface PartyDetail extends PartyItem {
  aliases: { name: string; ppas: number }[];
  years: { first: number | null; last: number | null };
  partners: { id: string; name: string; ppas: number }[];
  links: { ppas: string };
}
interface PartyList {
  data: PartyItem[];
  meta: { total: number; page: number | null; per_page: number; sort: string; next_cursor?: string | null };
  links: { self: string; prev: string | null; next: string | null };
}

const fiscal = (annual: number | null, guaranteed: number | null) => ({
  annual_payment_obligation_usd: annual,
  guaranteed_amount_usd: guaranteed,
  termination_payment_usd: null,
});

/** Spelling variants, consortia and shared offtakers, and a party in all three roles. */
function seededRecords(): PpaRecord[] {
  const seeded = (slug: string, changes: Partial<PpaRecord>) =>
    ppaRecord(`party-seed-${slug}`, { updated_at: '2026-01-01T00:00:00.000Z', ...changes });
  return [
    seeded('one', {
      developer: 'Zephyrine Énergie',
      offtaker: { name: 'Kalmora Power Authority', type: 'state_utility' },
      procurement: { procuring_entity: 'Kalmora Power Authority' },
      capacity_mw: 10.04,
      country_code: 'KE',
      financial_close_year: 2011,
      fiscal: fiscal(1000.4, null),
    }),
    seeded('two', {
      developer: 'ZEPHYRINE ENERGIE; Quorvant Holdings (40%)',
      offtaker: { name: 'KALMORA POWER  AUTHORITY', type: 'state_utility' },
      capacity_mw: 20.03,
      country_code: 'KE',
      financial_close_year: 2015,
      fiscal: fiscal(null, 2500.3),
    }),
    seeded('three', {
      developer: 'Quorvant Holdings / Zephyrine  Énergie',
      offtaker: { name: 'Kalmora Power Authority', type: 'state_utility' },
      capacity_mw: 30.02,
      country_code: 'TZ',
      financial_close_year: null,
      fiscal: fiscal(200.2, 300.3),
    }),
    seeded('four', {
      developer: 'Kalmora Power Authority',
      offtaker: { name: 'Quorvant Holdings', type: 'private' },
      procurement: { procuring_entity: 'Ministère de l’Énergie' },
      capacity_mw: 5.05,
      country_code: 'UG',
      financial_close_year: 2019,
    }),
    // Inactive: counts for no party.
    seeded('five', {
      developer: 'Zephyrine Énergie',
      offtaker: { name: 'Lonely Inactive Utility', type: 'state_utility' },
      active: false,
      capacity_mw: 999,
    }),
    // Unpublished: not served at all.
    seeded('six', { developer: 'Hidden Unpublished Developer', published: false }),
  ];
}

const ALL = (): PpaRecord[] => [...sampleRecords, ...seededRecords()];

function expectItem(actual: PartyItem, expected: OracleParty, base: string): void {
  const label = expected.id;
  expect(actual.id, label).to.equal(expected.id);
  expect(actual.name, `${label} name`).to.equal(expected.name);
  expect(actual.roles, `${label} roles`).to.deep.equal(expected.roles);
  expect(actual.ppas, `${label} ppas`).to.equal(expected.ppas);
  expect(actual.capacity_mw, `${label} capacity`).to.equal(roundTo(expected.capacity_mw, 1));
  expect(actual.annual_payment_obligation_usd, `${label} annual`).to.equal(
    roundTo(expected.annual_payment_obligation_usd, 0),
  );
  expect(actual.guaranteed_amount_usd, `${label} guaranteed`).to.equal(
    roundTo(expected.guaranteed_amount_usd, 0),
  );
  expect(actual.ppas_with_disclosed_amounts, `${label} disclosed`).to.equal(
    expected.ppas_with_disclosed_amounts,
  );
  expect(actual.countries, `${label} countries`).to.deep.equal(expected.countries);
  expect(actual.url, `${label} url`).to.equal(`${base}/api/v1/parties/${expected.id}`);
}

describe('api parties: counterparties as entities, against an oracle over the sample and a seeded set', function () {
  this.timeout(300_000);
  const client = testEsClient();
  const alias = uniqueName('ppa-parties');
  const api = ppasApi(() => app.url);
  let app: TestApp;
  let dir = '';
  let path = '';
  const oracle = partiesByHand(ALL());
  let partySearches = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ppa-api-parties-'));
    path = join(dir, 'parties.ndjson');
    await writeFile(
      path,
      ALL()
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    await indexSample(client, alias, path);
    app = await buildTestApp({
      alias,
      configOverrides: { logLevel: 'warn' },
      // Counts the searches of the parties, to tell which roll-ups they answered.
      wrapSearch: (gateway) => ({
        ...gateway,
        searchParties: (request) => {
          partySearches++;
          return gateway.searchParties(request);
        },
      }),
    });
  });
  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function list(query: string): Promise<PartyList> {
    const { status, body } = await api.get(`/api/v1/parties?${query}`);
    expect(status, query).to.equal(200);
    return body as PartyList;
  }

  /** Every party of a search, following links.next. */
  async function walk(query: string): Promise<PartyItem[]> {
    const items: PartyItem[] = [];
    let url: string | null = `${app.url}/api/v1/parties?${query}`;
    while (url) {
      const { status, body } = await api.get(url);
      expect(status, url).to.equal(200);
      items.push(...(body as PartyList).data);
      url = (body as PartyList).links.next;
    }
    return items;
  }

  it('the seeded variants are one party each: the ids the oracle makes, the most common spelling as name', () => {
    const zephyrine = oracle.get(partyIdByHand('Zephyrine Energie'))!;
    expect(zephyrine.id).to.equal('zephyrine-energie');
    expect(zephyrine.ppas).to.equal(3);
    expect(zephyrine.aliases).to.deep.equal([
      { name: 'Zephyrine Énergie', ppas: 2 },
      { name: 'ZEPHYRINE ENERGIE', ppas: 1 },
    ]);
    const kalmora = oracle.get('kalmora-power-authority')!;
    expect(kalmora.roles).to.deep.equal({ developer: 1, offtaker: 3, procuring_entity: 1 });
    expect(oracle.has(partyIdByHand('Lonely Inactive Utility'))).to.equal(false);
    expect(partyIdByHand('Ministère de l’Énergie')).to.match(/^ministere-de-l-energie-[0-9a-f]{8}$/);
  });

  it('lists every party of the oracle, each equal field by field, ids unique, most PPAs first', async () => {
    const items = await walk('per_page=100');
    expect(items.map((item) => item.id).sort()).to.deep.equal([...oracle.keys()].sort());
    expect(new Set(items.map((item) => item.id)).size).to.equal(items.length);
    for (const item of items) expectItem(item, oracle.get(item.id)!, app.url);
    const expectedOrder = [...oracle.values()]
      .sort((a, b) => b.ppas - a.ppas || (a.id < b.id ? -1 : 1))
      .map((party) => party.id);
    expect(items.map((item) => item.id)).to.deep.equal(expectedOrder);
  });

  it("each party's page: the item, aliases, years, partners (top 10 with names) and the link to its PPAs", async () => {
    for (const party of oracle.values()) {
      const { status, body } = await api.get(`/api/v1/parties/${party.id}`);
      expect(status, party.id).to.equal(200);
      const detail = (body as { data: PartyDetail }).data;
      expectItem(detail, party, app.url);
      expect(detail.aliases, `${party.id} aliases`).to.deep.equal(party.aliases);
      expect(detail.years, `${party.id} years`).to.deep.equal(party.years);
      expect(detail.partners, `${party.id} partners`).to.deep.equal(
        topPartners(party).map(({ id, ppas }) => ({ id, name: oracle.get(id)!.name, ppas })),
      );
      expect(detail.links.ppas).to.equal(`${app.url}/api/v1/ppas?party=${party.id}`);
    }
  });

  it("the party filter: a party's PPAs in any role; several are OR, ! leaves out; the statistics agree", async () => {
    const listed = ALL().filter((r) => r.published && r.active);
    const parties = [...oracle.values()].sort((a, b) => b.ppas - a.ppas);
    const sample = [
      ...parties.slice(0, 6),
      ...['zephyrine-energie', 'kalmora-power-authority'].map((id) => oracle.get(id)!),
    ];
    for (const party of sample) {
      const slugs = await api.walk(`party=${party.id}&per_page=100`);
      expect(slugs.sort(), party.id).to.deep.equal([...party.slugs].sort());
    }
    const [a, b] = [parties[0]!, parties[1]!];
    const either = await api.walk(`party=${a.id},${b.id}&per_page=100`);
    expect(either.sort()).to.deep.equal([...new Set([...a.slugs, ...b.slugs])].sort());
    const without = await api.walk(`party=!${a.id}&per_page=100`);
    expect(without.sort()).to.deep.equal(
      listed
        .filter((r) => !a.slugs.has(r.slug))
        .map((r) => r.slug)
        .sort(),
    );
    const { status, body } = await api.get(`/api/v1/ppas/statistics?party=${b.id}`);
    expect(status).to.equal(200);
    expect((body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(b.ppas);
    const unknown = await api.list('party=no-such-party');
    expect(unknown.meta.total).to.equal(0);
  });

  it('q is forgiving: case, accents, a typo in a long word, the last word a prefix; over names and aliases', async () => {
    for (const q of [
      'zephyrine energie',
      'ZÉPHYRINE',
      'zephyrime energie',
      'zephyrine ener',
      'Zephyrine  Énergie',
    ]) {
      const found = await list(`q=${encodeURIComponent(q)}`);
      expect(found.meta.sort, q).to.equal('relevance');
      expect(found.data[0]?.id, q).to.equal('zephyrine-energie');
    }
    const kalmora = await list('q=kalmora');
    expect(kalmora.data.map((item) => item.id)).to.deep.equal(['kalmora-power-authority']);
    // A word of four letters takes no typo, even as the last word (a prefix must be one).
    expect((await list('q=kalmora%20powr')).meta.total).to.equal(0);
    expect((await list('q=kalmora%20pow')).data.map((item) => item.id)).to.deep.equal([
      'kalmora-power-authority',
    ]);
  });

  it('role and country: parties with that role, or with a PPA there, as the oracle says', async () => {
    const ids = (items: PartyItem[]) => items.map((item) => item.id).sort();
    const byRole = (roles: string[]) =>
      [...oracle.values()]
        .filter((p) => roles.some((role) => p.roles[role as 'developer'] > 0))
        .map((p) => p.id);
    expect(ids(await walk('role=offtaker&per_page=100'))).to.deep.equal(byRole(['offtaker']).sort());
    expect(ids(await walk('role=procuring_entity,developer&per_page=100'))).to.deep.equal(
      byRole(['procuring_entity', 'developer']).sort(),
    );
    const inKenya = [...oracle.values()].filter((p) => p.countries.includes('KE')).map((p) => p.id);
    expect(ids(await walk('country=ke&per_page=100'))).to.deep.equal(inKenya.sort());
    const notKenya = [...oracle.values()].filter((p) => !p.countries.includes('KE')).map((p) => p.id);
    expect(ids(await walk('country=!ke&per_page=100'))).to.deep.equal(notKenya.sort());
  });

  it('orders: capacity, guaranteed amount and name, ties by id; a cursor walk returns each party once', async () => {
    const all = [...oracle.values()];
    const tie = (a: OracleParty, b: OracleParty) => (a.id < b.id ? -1 : 1);
    const capacity = await walk('sort=capacity_desc&per_page=100');
    expect(capacity.map((p) => p.id)).to.deep.equal(
      [...all].sort((a, b) => b.capacity_mw - a.capacity_mw || tie(a, b)).map((p) => p.id),
    );
    const guaranteed = await walk('sort=guaranteed_desc&per_page=100');
    expect(guaranteed.map((p) => p.id)).to.deep.equal(
      [...all]
        .sort((a, b) => b.guaranteed_amount_usd - a.guaranteed_amount_usd || tie(a, b))
        .map((p) => p.id),
    );
    const fold = keyByHand;
    const byName = await walk('sort=name_asc&per_page=100');
    expect(byName.map((p) => p.id)).to.deep.equal(
      [...all]
        .sort((a, b) => (fold(a.name) < fold(b.name) ? -1 : fold(a.name) > fold(b.name) ? 1 : tie(a, b)))
        .map((p) => p.id),
    );
    const walked = await walk('cursor=*&per_page=7&sort=capacity_desc');
    expect(walked.map((p) => p.id)).to.deep.equal(capacity.map((p) => p.id));
  });

  it('the roll-ups of counterparties carry the party id; OCDS names each party by the same id', async () => {
    for (const dimension of ['developer', 'offtaker', 'procuring_entity']) {
      const { body } = await api.get(`/api/v1/ppas/statistics?group_by=${dimension}&group_limit=200`);
      const groups = (body as { data: { groups: { key: string | null; party_id: string | null }[] } }).data
        .groups;
      expect(groups.length, dimension).to.be.above(0);
      for (const group of groups) {
        if (group.key === null) expect(group.party_id).to.equal(null);
        else {
          expect(group.party_id, `${dimension} ${group.key}`).to.equal(partyIdByHand(group.key));
          expect(oracle.has(group.party_id!), group.party_id!).to.equal(true);
        }
      }
    }
    const { status, body } = await api.get('/api/v1/ppas/party-seed-two/ocds');
    expect(status).to.equal(200);
    const release = (body as { records: { compiledRelease: { parties: { id: string }[] } }[] }).records[0]!
      .compiledRelease;
    expect(release.parties.map((party) => party.id).sort()).to.deep.equal(
      ['zephyrine-energie', 'quorvant-holdings', 'kalmora-power-authority'].sort(),
    );
  });

  it('an unfiltered counterparty roll-up is read from the parties, and equals the one grouped from the PPAs', async () => {
    type Groups = { data: { groups: unknown[]; groups_meta: unknown } };
    for (const dimension of ['developer', 'offtaker', 'procuring_entity']) {
      for (const sort of [
        'capacity_desc',
        'ppas_desc',
        'annual_payment_desc',
        'guaranteed_desc',
        'key_asc',
      ]) {
        for (const limit of [1, 7, 200]) {
          const query = `group_by=${dimension}&group_sort=${sort}&group_limit=${limit}`;
          const before = partySearches;
          const fromParties = (await api.get(`/api/v1/ppas/statistics?${query}`)).body as Groups;
          expect(partySearches, `${query} read the parties`).to.equal(before + 1);
          // min_capacity=0 selects the same PPAs, and is grouped from them.
          const fromPpas = (await api.get(`/api/v1/ppas/statistics?${query}&min_capacity=0`)).body as Groups;
          expect(partySearches, `${query}&min_capacity=0 grouped the PPAs`).to.equal(before + 1);
          expect(fromParties.data.groups, query).to.deep.equal(fromPpas.data.groups);
          expect(fromParties.data.groups_meta, query).to.deep.equal(fromPpas.data.groups_meta);
        }
      }
    }
  });

  it('bad input is a 400 naming the parameter; an unknown or malformed id is 404', async () => {
    const cases: [string, string][] = [
      ['/api/v1/parties?role=buyer', 'role'],
      ['/api/v1/parties?country=kenya', 'country'],
      ['/api/v1/parties?sort=relevance', 'sort'],
      ['/api/v1/parties?sort=popular', 'sort'],
      ['/api/v1/parties?per_page=0', 'per_page'],
      ['/api/v1/parties?per_page=101', 'per_page'],
      ['/api/v1/parties?page=101&per_page=100', 'page'],
      ['/api/v1/parties?cursor=garbage', 'cursor'],
      ['/api/v1/parties?cursor=*&page=2', 'cursor'],
      [`/api/v1/parties?q=${'word '.repeat(13)}`, 'q'],
      ['/api/v1/parties?technology=solar_pv', 'technology'],
      ['/api/v1/parties/kalmora-power-authority?x=1', 'x'],
      ['/api/v1/ppas?party=Not_An_Id', 'party'],
      ['/api/v1/ppas/statistics?party=!', 'party'],
    ];
    for (const [path, name] of cases) {
      const problem: Problem = await api.problem(path);
      expect(paramNames(problem), path).to.deep.equal([name]);
    }
    await api.problem('/api/v1/parties/no-such-party', 404);
    await api.problem('/api/v1/parties/Not_An_Id', 404);
  });

  it('ids are the same after a reindex', async () => {
    const before = (await walk('per_page=100')).map((item) => item.id).sort();
    await indexSample(client, alias, path);
    const after = (await walk('per_page=100')).map((item) => item.id).sort();
    expect(after).to.deep.equal(before);
    expect(after).to.deep.equal([...oracle.keys()].sort());
  });
});
