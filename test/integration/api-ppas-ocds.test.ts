// The OCDS answers over the real app and Elasticsearch, validated as the Data Review Tool validates
// (test/support/ocdsValidator.ts: the vendored OCDS 1.1.5 schemas with the extension applied, formats, codelists,
// references): every PPA's record package, every page of the release package walked by links.next, every line of
// the OCDS export, over the sample and over a seeded set of the relevance generator. The release package and the
// export hold exactly the list's PPAs in its order; bad parameters are 400 naming them; ocids hold across a reindex.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { relevanceRecords } from '../../tools/relevance/corpus.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { createOcdsValidator } from '../support/ocdsValidator.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { indexSample } from '../support/sampleIndex.js';
import { records as sampleRecords } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface Release {
  ocid: string;
  id: string;
  date: string;
  tag: string[];
}
interface ReleasePackage {
  uri: string;
  publishedDate: string;
  extensions: string[];
  releases: Release[];
  links?: { next: string };
}
interface RecordPackage {
  uri: string;
  publishedDate: string;
  records: { ocid: string; releases: Release[]; compiledRelease: Release }[];
}

const PREFIX = 'ocds-a1b2c3';
const validator = createOcdsValidator();
const slugOf = (release: Release) => release.ocid.slice(PREFIX.length + 1);

/** The app over `records` (written to a file and indexed by the real reindex), with the OCDS helpers. */
function useOcdsApp(name: string, records: () => PpaRecord[]) {
  const client = testEsClient();
  const alias = uniqueName(name);
  let app: TestApp | undefined;
  let directory = '';
  let path = '';
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ppa-ocds-'));
    path = join(directory, 'records.ndjson');
    await writeFile(
      path,
      records()
        .map((record) => JSON.stringify(record))
        .join('\n'),
    );
    await indexSample(client, alias, path);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn', ocidPrefix: PREFIX } });
  });
  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(directory, { recursive: true, force: true });
  });
  afterEach(() => {
    const failures = (app?.logs ?? []).filter((line) => line.level >= 50);
    expect(failures, JSON.stringify(failures[0])).to.deep.equal([]);
  });
  const api = ppasApi(() => app!.url);

  /** Every page of the release package from the first, each validated; the slugs in order. */
  async function walkReleases(query: string): Promise<{ slugs: string[]; pages: number }> {
    let url: string | undefined = `${app!.url}/api/v1/ppas/ocds?${query}`;
    const slugs: string[] = [];
    let pages = 0;
    while (url) {
      const { status, body } = await api.get(url);
      expect(status, url).to.equal(200);
      const page = body as ReleasePackage;
      if (page.releases.length > 0) expect(validator.releasePackage(page), url).to.deep.equal([]);
      expect(page.uri.startsWith(`${app!.url}/api/v1/ppas/ocds`), page.uri).to.equal(true);
      slugs.push(...page.releases.map(slugOf));
      pages += 1;
      url = page.links?.next;
    }
    return { slugs, pages };
  }

  /** The export's lines, each a valid compiled release. */
  async function exportReleases(query: string): Promise<Release[]> {
    const response = await fetch(`${app!.url}/api/v1/ppas/export?format=ocds&${query}`);
    expect(response.status, query).to.equal(200);
    expect(response.headers.get('content-disposition')).to.match(/filename="ppas-[\d-]+\.ocds\.jsonl"/);
    const lines = (await response.text()).split('\n').filter(Boolean);
    const releases = lines.map((line) => JSON.parse(line) as Release);
    const problems = releases.flatMap((release, i) => validator.release(release, `line ${i + 1}`));
    expect(problems.slice(0, 10)).to.deep.equal([]);
    return releases;
  }

  /** Every record package of the published records validates; the unpublished are 404. */
  async function checkRecordPackages(all: PpaRecord[]): Promise<void> {
    const problems: string[] = [];
    const check = async (record: PpaRecord) => {
      const { status, body } = await api.get(`/api/v1/ppas/${record.slug}/ocds`);
      if (!record.published) {
        expect(status, record.slug).to.equal(404);
        return;
      }
      expect(status, record.slug).to.equal(200);
      const recordPackage = body as RecordPackage;
      problems.push(...validator.recordPackage(recordPackage).map((problem) => `${record.slug}: ${problem}`));
      expect(recordPackage.records[0]?.ocid).to.equal(`${PREFIX}-${record.slug}`);
    };
    // A few requests in flight at once: each waits on Elasticsearch while another's package is validated.
    for (let start = 0; start < all.length; start += PACKAGES_AT_ONCE) {
      await Promise.all(all.slice(start, start + PACKAGES_AT_ONCE).map(check));
    }
    expect(problems.slice(0, 10)).to.deep.equal([]);
  }

  return {
    api,
    app: () => app!,
    client,
    alias,
    path: () => path,
    walkReleases,
    exportReleases,
    checkRecordPackages,
  };
}

/** Record packages asked for at once (each one validated); the whole sample is checked either way. */
const PACKAGES_AT_ONCE = 4;

/** Searches with q operators and ! filters, and sorts, as the list takes them. */
const SEARCHES = [
  'per_page=100',
  `q=${encodeURIComponent('solar OR wind')}&per_page=7`,
  `q=${encodeURIComponent('-hydro')}&sort=name_asc&per_page=50`,
  `q=${encodeURIComponent('"power project"')}&per_page=3`,
  'technology=!wind&country=!ci&per_page=40&sort=capacity_desc',
  'risk_features=!take_or_pay&tariff=!energy_only&year=1995..2015&per_page=9',
  `q=${encodeURIComponent('developer:energy')}&min_capacity=5&sort=oldest&per_page=11`,
];

describe('api /api/v1/ppas/…/ocds over the sample: OCDS packages that validate', function () {
  this.timeout(300_000);
  const ocds = useOcdsApp('api-ocds', () => sampleRecords);

  it('every published sample PPA’s record package validates (active or not); an unpublished slug is 404', async () => {
    await ocds.checkRecordPackages(sampleRecords);
    const inactive = sampleRecords.find((record) => record.published && !record.active)!;
    const { body } = await ocds.api.get(`/api/v1/ppas/${inactive.slug}/ocds`);
    const record = (body as RecordPackage).records[0]!;
    expect(record.compiledRelease.tag).to.deep.equal(['compiled']);
    expect(record.releases[0]!.tag).to.include('contractTermination');
    const problem = await ocds.api.problem('/api/v1/ppas/no-such-ppa/ocds', 404);
    expect(problem.status).to.equal(404);
  });

  it('every page of ?per_page=100 validates, and walking links.next gives the list’s PPAs in its order', async () => {
    for (const query of SEARCHES) {
      const listed = await ocds.api.walk(query);
      const { slugs, pages } = await ocds.walkReleases(query);
      expect(slugs, query).to.deep.equal(listed);
      if (query === 'per_page=100') expect(pages).to.equal(Math.ceil(listed.length / 100));
    }
  });

  it('export?format=ocds: the list’s count and order, one valid compiled release a line, as the package gives it', async () => {
    for (const query of [SEARCHES[1]!, SEARCHES[4]!, '']) {
      const listed = await ocds.api.walk(query.replace(/&?per_page=\d+/, '') || 'per_page=100');
      const releases = await ocds.exportReleases(query.replace(/&?per_page=\d+/, ''));
      expect(releases.map(slugOf), query).to.deep.equal(listed);
    }
    const first = ((await ocds.api.get('/api/v1/ppas/ocds?per_page=3')).body as ReleasePackage).releases;
    const exported = await ocds.exportReleases('');
    expect(exported.slice(0, 3)).to.deep.equal(first);
  });

  it('400 naming per_page, cursor, sort or year; the list’s own parameters named as not these', async () => {
    const cases: [string, string[]][] = [
      ['per_page=0', ['per_page']],
      ['per_page=101', ['per_page']],
      ['cursor=abc', ['cursor']],
      ['sort=relevance', ['sort']],
      ['sort=sideways', ['sort']],
      ['year=19x', ['year']],
      ['page=2', ['page']],
      ['fields=slug&facets=technology&highlight=true', ['facets', 'fields', 'highlight']],
    ];
    for (const [query, names] of cases) {
      expect(paramNames(await ocds.api.problem(`/api/v1/ppas/ocds?${query}`)), query).to.deep.equal(names);
    }
    const next = ((await ocds.api.get('/api/v1/ppas/ocds?per_page=2')).body as ReleasePackage).links!.next;
    const otherSort = `${next}&sort=name_asc`;
    expect(paramNames(await ocds.api.problem(otherSort))).to.deep.equal(['cursor']);
    expect(paramNames(await ocds.api.problem('/api/v1/ppas/kahone-solar/ocds?x=1'))).to.deep.equal(['x']);
    expect(paramNames(await ocds.api.problem('/api/v1/ppas/export?format=ocds&fields=slug'))).to.deep.equal([
      'fields',
    ]);
  });

  it('the list’s cursor walks on here; the package is cached with an ETag, compressed, rate limited', async () => {
    const list = (await ocds.api.get('/api/v1/ppas?per_page=5&cursor=*')).body as {
      meta: { next_cursor: string };
    };
    const page = await ocds.api.get(`/api/v1/ppas/ocds?per_page=5&cursor=${list.meta.next_cursor}`);
    expect(page.status).to.equal(200);
    const second = (await ocds.api.get('/api/v1/ppas?per_page=5&page=2')).body as {
      data: { slug: string }[];
    };
    expect((page.body as ReleasePackage).releases.map(slugOf)).to.deep.equal(
      second.data.map((item) => item.slug),
    );
    const url = `${ocds.app().url}/api/v1/ppas/ocds?per_page=5`;
    const first = await fetch(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(first.headers.get('content-encoding')).to.equal('gzip');
    expect(first.headers.get('ratelimit-policy')).to.be.a('string');
    expect(first.headers.get('link')).to.match(/rel="self".*rel="next"/);
    const etag = first.headers.get('etag')!;
    const again = await fetch(url, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } });
    expect(again.status).to.equal(304);
    const slug = sampleRecords.find((record) => record.published)!.slug;
    const detail = await fetch(`${ocds.app().url}/api/v1/ppas/${slug}/ocds`);
    const revalidated = await fetch(`${ocds.app().url}/api/v1/ppas/${slug}/ocds`, {
      headers: { 'If-None-Match': detail.headers.get('etag')! },
    });
    expect(revalidated.status).to.equal(304);
  });

  it('serves the extension: extension.json names the files served beside it, as the validator applies them', async () => {
    const base = ocds.app().url;
    const { body } = await ocds.api.get('/api/v1/ppas/ocds?per_page=1');
    const extensionUrl = (body as ReleasePackage).extensions[0]!;
    expect(extensionUrl).to.equal(`${base}/api/v1/ocds/extension.json`);
    const extension = (await ocds.api.get(extensionUrl)).body as { schemas: string[]; codelists: string[] };
    expect(extension.schemas).to.deep.equal(['release-schema.json', 'release-package-schema.json']);
    const dir = extensionUrl.replace(/extension\.json$/, '');
    for (const schema of extension.schemas) {
      const answer = await ocds.api.get(`${dir}${schema}`);
      expect(answer.status, schema).to.equal(200);
      assertMatchesOpenApi(`/api/v1/ocds/${schema}`, 200, answer.body);
    }
    for (const codelist of extension.codelists) {
      const answer = await fetch(`${dir}codelists/${codelist}`);
      expect(answer.status, codelist).to.equal(200);
      expect(await answer.text()).to.match(/^Category,Section,Code,Title,Description\r\n/);
    }
    expect((await ocds.api.get('/api/v1/ocds/secrets.json')).status).to.equal(404);
    expect((await ocds.api.get('/api/v1/ocds/codelists/partyRole.csv')).status).to.equal(404);
  });

  it('ocids are unique per PPA and the same across a reindex; publishedDate moves with it', async () => {
    const before = (await ocds.api.get('/api/v1/ppas/ocds?per_page=100')).body as ReleasePackage;
    const ocids = before.releases.map((release) => release.ocid);
    expect(new Set(ocids).size).to.equal(ocids.length);
    await indexSample(ocds.client, ocds.alias, ocds.path());
    let after = before;
    for (let tries = 0; tries < 50 && after.publishedDate === before.publishedDate; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = (await ocds.api.get('/api/v1/ppas/ocds?per_page=100')).body as ReleasePackage;
    }
    expect(after.publishedDate > before.publishedDate, 'a later build').to.equal(true);
    expect(after.releases.map((release) => release.ocid)).to.deep.equal(ocids);
    expect(after.releases.map((release) => release.id)).to.deep.equal(before.releases.map((r) => r.id));
  });
});

describe('api /api/v1/ppas/…/ocds over a seeded set of the relevance generator', function () {
  this.timeout(300_000);
  const records = () => relevanceRecords({ seed: 20261207, count: 1200 });
  const ocds = useOcdsApp('api-ocds-relevance', records);

  it('every record package, every page and every export line validate; the walk and the export are the list', async () => {
    await ocds.checkRecordPackages(records());
    const listed = await ocds.api.walk('per_page=100');
    const { slugs } = await ocds.walkReleases('per_page=100');
    expect(slugs).to.deep.equal(listed);
    const exported = await ocds.exportReleases('');
    expect(exported.map(slugOf)).to.deep.equal(listed);
  });
});
