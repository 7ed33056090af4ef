// Roll-ups (statistics?group_by=…) over the real app and Elasticsearch, against the plain-JavaScript oracle of
// test/support/groupsOracle.ts: every dimension, over the sample and over a seeded 3,000-record set (its
// counterparties respelled and joined in consortia, so that spellings merge and members split), unfiltered and
// under 10 seeded filter sets with q operators. The selection is read back from the export, so what is checked
// here is the grouping and the sums; that the same q selects the same PPAs everywhere is held by the list's tests.
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { foldText } from '../../indexContract/text/fold.js';
import { roundTo } from '../../src/present/rounding.js';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { Random } from '../../tools/generate/random.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import {
  DIMENSIONS,
  members,
  oracleGroups,
  type Dimension,
  type OracleGroup,
} from '../support/groupsOracle.js';
import { partyIdByHand } from '../support/partiesOracle.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { indexSample } from '../support/sampleIndex.js';
import { records as sampleRecords } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface Group extends OracleGroup {
  share_of_capacity: number;
  groups?: Group[];
  groups_meta?: GroupsMeta;
}
interface GroupsMeta {
  dimension: string;
  total_groups: number;
  other: Omit<OracleGroup, 'key'> & { groups: number; share_of_capacity: number };
}
interface StatisticsBody {
  data: { totals: { ppas: number; capacity_mw: number }; groups?: Group[]; groups_meta?: GroupsMeta };
}

/** The seeded set: generated, then its counterparties written the ways registries write them. */
function seededRecords(): PpaRecord[] {
  const random = new Random(20261206);
  const generated = [...generateRecords({ seed: 20261206, count: 3000 })];
  return generated.map((record, index) => {
    const changed = structuredClone(record);
    if (index % 7 === 0 && changed.offtaker?.name)
      changed.offtaker.name = changed.offtaker.name.toUpperCase();
    if (index % 11 === 0) changed.developer = `${changed.developer}; Vestas Wind Systems A/S (40%)`;
    if (index % 13 === 0) changed.developer = `${foldText(changed.developer)} / Meridiam  SA`;
    if (index % 17 === 0 && changed.procurement?.procuring_entity)
      changed.procurement.procuring_entity = ` ${changed.procurement.procuring_entity}  `;
    if (random.chance(0.02)) changed.developer = 'Vestas Wind Systems A/S';
    return changed;
  });
}

/** Ten filter sets drawn from the records, q operators among them. */
function seededFilterSets(records: readonly PpaRecord[], seed: number): string[] {
  const random = new Random(seed);
  const words = (text: string) =>
    foldText(text)
      .split(/[^a-z0-9]+/u)
      .filter((word) => word.length >= 5);
  const name = () => random.pick(records).project_name;
  const word = () => random.pick(words(name()).length ? words(name()) : ['solar']);
  const pair = () => {
    const found = words(name());
    return found.length >= 2 ? `"${found[0]} ${found[1]}"` : `"${found[0] ?? 'solar'}"`;
  };
  const country = random.pick(records.filter((r) => r.country_code)).country_code!.toLowerCase();
  const member = () => words(random.pick(members(random.pick(records).developer)))[0] ?? 'power';
  return [
    `q=${encodeURIComponent(`${word()} OR ${word()}`)}`,
    `q=${encodeURIComponent(`-${random.pick(['solar', 'wind', 'hydro', 'gas'])}`)}`,
    `q=${encodeURIComponent(pair())}`,
    `q=${encodeURIComponent(`developer:${member()}`)}&min_capacity=5`,
    `q=${encodeURIComponent(`${word()} -${word()}`)}`,
    `technology=solar_pv,wind,!wind&country=!${country}`,
    'year=2010..2018&min_capacity=10',
    'risk_features[]=government_guarantee&tariff=!energy_only',
    `developer=${encodeURIComponent(member())}`,
    `country=${country}&risk_features=!take_or_pay&max_capacity=200`,
  ];
}

const compareKeys = (a: OracleGroup['key'], b: OracleGroup['key']): number => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [foldText(String(a)), foldText(String(b))];
  return x !== y ? (x < y ? -1 : 1) : String(a) < String(b) ? -1 : 1;
};

/** The oracle's groups as the API orders them by capacity (rounded), ties by key. */
function byCapacity(groups: OracleGroup[]): OracleGroup[] {
  return [...groups].sort(
    (a, b) => roundTo(b.capacity_mw, 1) - roundTo(a.capacity_mw, 1) || compareKeys(a.key, b.key),
  );
}

function expectGroup(actual: Group, expected: OracleGroup, label: string): void {
  expect(actual.key, label).to.equal(expected.key);
  expect(actual.ppas, `${label} ppas`).to.equal(expected.ppas);
  expect(actual.capacity_mw, `${label} capacity`).to.be.closeTo(expected.capacity_mw, 0.05 + 1e-9);
  expect(actual.annual_payment_obligation_usd, `${label} annual payment`).to.be.closeTo(
    expected.annual_payment_obligation_usd,
    0.5 + 1e-6,
  );
  expect(actual.guaranteed_amount_usd, `${label} guaranteed`).to.be.closeTo(
    expected.guaranteed_amount_usd,
    0.5 + 1e-6,
  );
  expect(actual.ppas_with_disclosed_amounts, `${label} disclosed`).to.equal(
    expected.ppas_with_disclosed_amounts,
  );
}

/** Shown groups equal the oracle's first ones, and other sums the rest as shown. */
function expectGroups(body: StatisticsBody, expected: OracleGroup[], limit: number, label: string): void {
  const groups = body.data.groups ?? [];
  const meta = body.data.groups_meta!;
  const ordered = byCapacity(expected);
  expect(meta.total_groups, `${label} total_groups`).to.equal(ordered.length);
  expect(groups.length, `${label} shown`).to.equal(Math.min(limit, ordered.length));
  groups.forEach((group, index) => expectGroup(group, ordered[index]!, `${label} #${index}`));
  const hidden = ordered.slice(limit);
  expectOther(meta.other, hidden, label);
  // The counterparties' groups are parties: their id is the party's (the contract's rule, written again here).
  if (['developer', 'offtaker', 'procuring_entity'].includes(meta.dimension)) {
    for (const group of groups) {
      const expectedId = typeof group.key === 'string' ? partyIdByHand(group.key) : null;
      expect((group as Group & { party_id?: string | null }).party_id, `${label} party_id`).to.equal(
        expectedId,
      );
    }
  }
}

/** `other` equals the oracle's groups not shown, summed exactly and rounded once. */
function expectOther(other: GroupsMeta['other'], hidden: OracleGroup[], label: string): void {
  const sum = (of: (group: OracleGroup) => number) => hidden.reduce((total, group) => total + of(group), 0);
  expect(other.groups, `${label} other.groups`).to.equal(hidden.length);
  expect(other.ppas, `${label} other.ppas`).to.equal(sum((group) => group.ppas));
  expect(other.capacity_mw, `${label} other.capacity_mw`).to.equal(
    roundTo(
      sum((group) => group.capacity_mw),
      1,
    ),
  );
  expect(other.annual_payment_obligation_usd, `${label} other.annual`).to.equal(
    roundTo(
      sum((group) => group.annual_payment_obligation_usd),
      0,
    ),
  );
  expect(other.guaranteed_amount_usd, `${label} other.guaranteed`).to.equal(
    roundTo(
      sum((group) => group.guaranteed_amount_usd),
      0,
    ),
  );
  expect(other.ppas_with_disclosed_amounts, `${label} other.disclosed`).to.equal(
    sum((group) => group.ppas_with_disclosed_amounts),
  );
}

function useRollUps(name: string, records: () => PpaRecord[]) {
  const client = testEsClient();
  const alias = uniqueName(name);
  let app: TestApp | undefined;
  let directory = '';
  const bySlug = new Map<string, PpaRecord>();
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ppa-groups-'));
    const path = join(directory, 'records.ndjson');
    const all = records();
    for (const record of all) bySlug.set(record.slug, record);
    await writeFile(path, all.map((record) => JSON.stringify(record)).join('\n'));
    await indexSample(client, alias, path);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });
  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(directory, { recursive: true, force: true });
  });
  const api = ppasApi(() => app!.url);
  /** The records the filters select, read back from the export. */
  async function selection(filters: string): Promise<PpaRecord[]> {
    const response = await fetch(`${app!.url}/api/v1/ppas/export?format=ndjson&fields=slug&${filters}`);
    expect(response.status, filters).to.equal(200);
    const lines = (await response.text()).split('\n').filter(Boolean);
    return lines.map((line) => bySlug.get((JSON.parse(line) as { slug: string }).slug)!);
  }
  async function statistics(query: string): Promise<StatisticsBody> {
    const response = await api.get(`/api/v1/ppas/statistics?${query}`);
    expect(response.status, `${query}: ${JSON.stringify(response.body)}`).to.equal(200);
    return response.body as StatisticsBody;
  }
  return { api, selection, statistics, app: () => app!, records: () => [...bySlug.values()] };
}

for (const [label, source] of [
  ['the sample', () => sampleRecords.filter((record) => record.published)],
  ['a seeded 3,000-record set', () => seededRecords()],
] as const) {
  describe(`GET /api/v1/ppas/statistics?group_by=… over ${label}`, function () {
    this.timeout(300_000);
    const rollUps = useRollUps('api-groups', source);
    const listed = () => rollUps.records().filter((record) => record.published && record.active);

    it('every dimension equals the oracle, unfiltered and under 10 seeded filter sets with q operators', async () => {
      const filterSets = ['', ...seededFilterSets(listed(), label.length)];
      let nonEmpty = 0;
      for (const filters of filterSets) {
        const selected = await rollUps.selection(filters);
        if (selected.length > 0) nonEmpty++;
        for (const dimension of DIMENSIONS) {
          const body = await rollUps.statistics(`group_by=${dimension}&group_limit=200&${filters}`);
          expect(body.data.totals.ppas, filters).to.equal(selected.length);
          expectGroups(body, oracleGroups(selected, dimension), 200, `${dimension} ?${filters}`);
        }
      }
      expect(nonEmpty, 'filter sets that select something').to.be.at.least(8);
    });

    it('every sort orders as the contract says, ties by key; what is shown and other add up', async () => {
      const sorts: Record<string, (group: OracleGroup) => number> = {
        ppas_desc: (group) => group.ppas,
        annual_payment_desc: (group) => roundTo(group.annual_payment_obligation_usd, 0),
        guaranteed_desc: (group) => roundTo(group.guaranteed_amount_usd, 0),
        key_asc: () => 0,
      };
      for (const dimension of ['developer', 'offtaker', 'year', 'risk_feature'] as Dimension[]) {
        const expected = oracleGroups(listed(), dimension);
        for (const [sort, measure] of Object.entries(sorts)) {
          const body = await rollUps.statistics(`group_by=${dimension}&group_sort=${sort}&group_limit=7`);
          const ordered = [...expected].sort((a, b) => measure(b) - measure(a) || compareKeys(a.key, b.key));
          expect(
            body.data.groups!.map((group) => group.key),
            `${dimension} ${sort}`,
          ).to.deep.equal(ordered.slice(0, 7).map((group) => group.key));
          // other is exact: the sums over the PPAs of the groups not shown, rounded once.
          expectOther(body.data.groups_meta!.other, ordered.slice(7), `${dimension} ${sort}`);
        }
      }
      // A dimension with one value per PPA adds up to the totals.
      const body = await rollUps.statistics('group_by=country&group_limit=3');
      const shownPpas = body.data.groups!.reduce((sum, group) => sum + group.ppas, 0);
      expect(shownPpas + body.data.groups_meta!.other.ppas).to.equal(body.data.totals.ppas);
    });

    it('a pivot: each group carries the groups of the second dimension within it', async () => {
      for (const [first, second] of [
        ['country', 'technology'],
        ['technology', 'risk_feature'],
        ['offtaker_type', 'developer'],
      ] as [Dimension, Dimension][]) {
        const body = await rollUps.statistics(`group_by=${first},${second}&group_limit=200`);
        expectGroups(body, oracleGroups(listed(), first), 200, `${first}`);
        for (const group of body.data.groups!) {
          const within = listed().filter((record) =>
            oracleGroups([record], first).some(
              (own) => foldText(String(own.key)) === foldText(String(group.key)),
            ),
          );
          expect(group.groups_meta!.dimension).to.equal(second);
          const inner = {
            data: { totals: body.data.totals, groups: group.groups, groups_meta: group.groups_meta },
          };
          expectGroups(inner, oracleGroups(within, second), 200, `${first}=${group.key} ${second}`);
        }
      }
    });

    it('CSV gives the groups, or the pairs of a pivot, as the JSON does, with the export’s cell rules', async () => {
      for (const query of [
        'group_by=developer&group_limit=50',
        'group_by=country,technology&group_limit=5',
      ]) {
        const json = await rollUps.statistics(query);
        const response = await fetch(`${rollUps.app().url}/api/v1/ppas/statistics?${query}&format=csv`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
        expect(response.headers.get('content-disposition')).to.match(
          /^attachment; filename="ppa-groups-[a-z_-]+-\d{4}-\d\d-\d\d\.csv"$/,
        );
        const text = await response.text();
        expect(text.endsWith('\r\n')).to.equal(true);
        const [header, ...rows] = parseCsv(text) as string[][];
        const figures = [
          'ppas',
          'capacity_mw',
          'share_of_capacity',
          'annual_payment_obligation_usd',
          'guaranteed_amount_usd',
          'ppas_with_disclosed_amounts',
        ] as const;
        const cell = (value: unknown) => (value === null ? '' : String(value));
        const expected = query.includes(',')
          ? json.data.groups!.flatMap((outer) =>
              outer.groups!.map((inner) => [
                cell(outer.key),
                cell(inner.key),
                ...figures.map((f) => cell(inner[f])),
              ]),
            )
          : json.data.groups!.map((group) => [cell(group.key), ...figures.map((f) => cell(group[f]))]);
        expect(header).to.deep.equal([
          ...query.split('&')[0]!.slice('group_by='.length).split(','),
          ...figures,
        ]);
        expect(rows).to.deep.equal(expected);
      }
    });

    it('the statistics topics are byte for byte the same with and without group_by', async () => {
      for (const filters of ['', 'technology=solar_pv', 'q=-wind&year=2012..']) {
        const plain = (await rollUps.api.get(`/api/v1/ppas/statistics?${filters}`)).body as StatisticsBody;
        const grouped = await rollUps.statistics(`${filters}&group_by=developer,year`);
        const { groups: _groups, groups_meta: _meta, ...topics } = grouped.data;
        expect(JSON.stringify(topics)).to.equal(JSON.stringify(plain.data));
      }
    });
  });
}

describe('GET /api/v1/ppas/statistics?group_by=…: consortia and the 400s', function () {
  this.timeout(120_000);
  const base = sampleRecords.find((record) => record.published && record.active)!;
  const make = (slug: string, developer: string, offtaker: string): PpaRecord => ({
    ...structuredClone(base),
    slug,
    reference_code: `XX-TST-${slug}`,
    developer,
    offtaker: { name: offtaker, type: 'state_utility' },
  });
  const rollUps = useRollUps('api-groups-consortia', () => [
    make('one', 'Alpha Power / Beta Énergie', 'Senelec'),
    make('two', 'Vestas Wind Systems A/S', 'SENELEC'),
    make('three', 'Beta Energie (60%); Vestas Wind Systems A/S (40%)', 'Sénélec'),
    make('four', 'alpha power', 'Senelec'),
  ]);

  it('counts a PPA of "A / B" in A’s group and in B’s; "A/S" stays one name; spellings merge, the most common shown', async () => {
    const body = await rollUps.statistics('group_by=developer&group_sort=key_asc');
    expect(body.data.groups!.map((group) => [group.key, group.ppas])).to.deep.equal([
      ['Alpha Power', 2],
      // One "Beta Énergie" and one "Beta Energie": a tie goes to the spelling first by code point.
      ['Beta Energie', 2],
      ['Vestas Wind Systems A/S', 2],
    ]);
    const offtakers = await rollUps.statistics('group_by=offtaker');
    expect(offtakers.data.groups!.map((group) => [group.key, group.ppas])).to.deep.equal([['Senelec', 4]]);
  });

  it('bad group_by, group_sort, group_limit and format are 400s naming each', async () => {
    const cases: [string, string[]][] = [
      ['group_by=colour', ['group_by']],
      ['group_by=country,technology,year', ['group_by']],
      ['group_by=country,country', ['group_by']],
      ['group_by=country&group_sort=largest', ['group_sort']],
      ['group_by=country&group_limit=0', ['group_limit']],
      ['group_by=country&group_limit=201', ['group_limit']],
      ['group_by=country&format=xml', ['format']],
      ['group_sort=ppas_desc', ['group_sort']],
      ['format=csv', ['format']],
      ['group_by=', []],
    ];
    for (const [query, names] of cases) {
      const response = await rollUps.api.get(`/api/v1/ppas/statistics?${query}`);
      if (names.length === 0) {
        expect(response.status, query).to.equal(200);
        continue;
      }
      expect(response.status, query).to.equal(400);
      expect(paramNames(response.body as never), query).to.deep.equal(names);
    }
  });
});
