// Parties under sync (issue 75): a real PostgreSQL with the reference schema, the real sync and reindex, the real
// API. A PPA added to a party changes the party's figures and its page shows them; a new name becomes a party; a PPA
// deactivated takes them back. After each run every party equals the oracle over the rows as they now stand
// (test/support/partiesOracle.ts): a party's figures stay the sums over its PPAs.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { PpaRecord } from '../../indexContract/record.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { Sync } from '../../indexer/sync/sync.js';
import { roundTo } from '../../src/present/rounding.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { partiesByHand, partyIdByHand, topPartners, type OracleParty } from '../support/partiesOracle.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const sample = readFileSync(SAMPLE_PATH, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord);

interface PartyDetail {
  id: string;
  name: string;
  roles: Record<string, number>;
  ppas: number;
  capacity_mw: number;
  guaranteed_amount_usd: number;
  annual_payment_obligation_usd: number;
  ppas_with_disclosed_amounts: number;
  countries: string[];
  aliases: { name: string; ppas: number }[];
  years: { first: number | null; last: number | null };
  partners: { id: string; name: string; ppas: number }[];
}

describe('indexer: parties follow sync from PostgreSQL, served by the API', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-parties-sync');
  let db: TestDatabase;
  let app: TestApp;
  let sync: Sync;

  async function party(id: string): Promise<PartyDetail | null> {
    const response = await fetch(`${app.url}/api/v1/parties/${id}`);
    if (response.status === 404) return null;
    expect(response.status, id).to.equal(200);
    return ((await response.json()) as { data: PartyDetail }).data;
  }

  /** Every party served equals the oracle's over `records`, page by page. */
  async function expectAllEqual(records: PpaRecord[]): Promise<void> {
    const oracle = partiesByHand(records);
    const served: PartyDetail[] = [];
    for (let page = 1; ; page++) {
      const response = await fetch(`${app.url}/api/v1/parties?per_page=100&page=${page}`);
      const body = (await response.json()) as { data: PartyDetail[] };
      served.push(...body.data);
      if (body.data.length < 100) break;
    }
    expect(served.map((p) => p.id).sort()).to.deep.equal([...oracle.keys()].sort());
    for (const item of served) {
      const expected = oracle.get(item.id)!;
      expect(item.ppas, item.id).to.equal(expected.ppas);
      expect(item.name, item.id).to.equal(expected.name);
      expect(item.roles, item.id).to.deep.equal(expected.roles);
      expect(item.capacity_mw, item.id).to.equal(roundTo(expected.capacity_mw, 1));
      expect(item.guaranteed_amount_usd, item.id).to.equal(roundTo(expected.guaranteed_amount_usd, 0));
      expect(item.countries, item.id).to.deep.equal(expected.countries);
    }
  }

  function expectPage(
    detail: PartyDetail | null,
    expected: OracleParty,
    oracle: Map<string, OracleParty>,
  ): void {
    expect(detail, expected.id).to.not.equal(null);
    expect(detail!.ppas).to.equal(expected.ppas);
    expect(detail!.capacity_mw).to.equal(roundTo(expected.capacity_mw, 1));
    expect(detail!.guaranteed_amount_usd).to.equal(roundTo(expected.guaranteed_amount_usd, 0));
    expect(detail!.roles).to.deep.equal(expected.roles);
    expect(detail!.aliases).to.deep.equal(expected.aliases);
    expect(detail!.countries).to.deep.equal(expected.countries);
    expect(detail!.years).to.deep.equal(expected.years);
    expect(detail!.partners).to.deep.equal(
      topPartners(expected).map(({ id, ppas }) => ({ id, name: oracle.get(id)!.name, ppas })),
    );
  }

  before(async () => {
    db = await createTestDatabase({ seed: true });
    await reindex({ client, alias, source: db.url });
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
    sync = new Sync({ client, alias, url: db.url });
  });
  after(async () => {
    await sync?.close();
    await app?.close();
    await deleteIndices(client, alias);
    await db?.drop();
    await client.close();
  });

  it('a PPA added to an offtaker changes its figures and its page; deactivated, they are as before', async () => {
    await expectAllEqual(sample);
    const before = partiesByHand(sample);
    const offtaker = [...before.values()]
      .filter((p) => p.roles.offtaker > 0)
      .sort((a, b) => b.ppas - a.ppas || (a.id < b.id ? -1 : 1))[0]!;
    const template = sample.find((r) => r.published && r.active)!;
    const slug = uniqueName('party-sync');
    const added: PpaRecord = {
      ...template,
      slug,
      reference_code: slug.toUpperCase(),
      project_name: 'Party Sync Solar',
      developer: `Brand New Sync Developer / ${offtaker.name}`,
      offtaker: { name: `  ${offtaker.name.toUpperCase()} `, type: template.offtaker?.type ?? null },
      capacity_mw: 77.77,
      country_code: 'IS',
      financial_close_year: 2031,
      fiscal: {
        annual_payment_obligation_usd: 1000,
        guaranteed_amount_usd: 5555.5,
        termination_payment_usd: null,
      },
      published: true,
      active: true,
      updated_at: new Date().toISOString(),
    };
    await db.query('SELECT ppa_upsert_record($1::jsonb)', [JSON.stringify(added)]);
    const first = await sync.run(() => false);
    expect(first.written).to.equal(1);

    const withAdded = [...sample, added];
    const after = partiesByHand(withAdded);
    const grown = after.get(offtaker.id)!;
    expect(grown.ppas).to.equal(offtaker.ppas + 1);
    expectPage(await party(offtaker.id), grown, after);
    const newcomer = partyIdByHand('Brand New Sync Developer');
    expectPage(await party(newcomer), after.get(newcomer)!, after);
    const listed = await fetch(`${app.url}/api/v1/ppas?party=${newcomer}`);
    expect(((await listed.json()) as { data: { slug: string }[] }).data.map((p) => p.slug)).to.deep.equal([
      slug,
    ]);
    await expectAllEqual(withAdded);
    // The unfiltered roll-up read from the parties follows too: equal to the same selection grouped from the PPAs.
    for (const dimension of ['offtaker', 'developer']) {
      const read = async (query: string) =>
        ((await (await fetch(`${app.url}/api/v1/ppas/statistics?${query}`)).json()) as { data: unknown })
          .data;
      const fromParties = await read(`group_by=${dimension}&group_limit=5`);
      const fromPpas = await read(`group_by=${dimension}&group_limit=5&min_capacity=0`);
      expect(fromParties).to.deep.equal(fromPpas);
    }

    await db.query('UPDATE ppas SET active = false WHERE slug = $1', [slug]);
    const second = await sync.run(() => false);
    expect(second.written).to.equal(1);
    expect(await party(newcomer)).to.equal(null);
    expectPage(await party(offtaker.id), before.get(offtaker.id)!, before);
    await expectAllEqual(sample);
  });
});
