import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import type { DetailSource } from '../../../../indexContract/sourceFields.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { ocdsReleasesQuery } from '../../../../src/params/ocdsReleases.js';
import { ocdsRecordPackage, ocdsReleasePage } from '../../../../src/present/ocdsPackage.js';
import { presentPpa } from '../../../../src/present/ppa.js';
import { records } from '../../../support/sampleOracle.js';

const BASE = 'https://api.example.org';
const publication = { ocidPrefix: 'ocds-a1b2c3', publisherName: 'Ministry of Energy' };
const sources = records
  .filter((record) => record.published)
  .slice(0, 4)
  .map((record) => buildDocument(record)) as DetailSource[];
const hits = sources.map((source, index): estypes.SearchHit<DetailSource> => ({
  _index: 'ppas-x',
  _id: source.slug,
  _source: source,
  sort: [1000 - index, source.slug],
}));

describe('api present: OCDS packages', () => {
  it('a record package: the package facts, the license and policy only when set, one record', () => {
    const request = { publication, base: BASE, uri: `${BASE}/x`, publishedDate: '2026-01-02T03:04:05.000Z' };
    const body = ocdsRecordPackage(presentPpa(sources[0]!, BASE), request);
    expect(Object.keys(body)).to.deep.equal([
      'uri',
      'version',
      'extensions',
      'publisher',
      'publishedDate',
      'records',
    ]);
    expect(body.extensions).to.deep.equal([`${BASE}/api/v1/ocds/extension.json`]);
    expect(body.records[0]?.ocid).to.equal(`ocds-a1b2c3-${sources[0]!.slug}`);
    expect(body.records[0]?.releases[0]?.id).to.not.equal(body.records[0]?.compiledRelease.id);
    const licensed = ocdsRecordPackage(presentPpa(sources[0]!, BASE), {
      ...request,
      publication: { ...publication, license: 'https://l.example/', publicationPolicy: 'https://p.example/' },
    });
    expect(licensed).to.include({ license: 'https://l.example/', publicationPolicy: 'https://p.example/' });
  });

  it('a release package page: the page’s compiled releases, links.next from the cursor after it while more remain', () => {
    const query = ocdsReleasesQuery.parse('per_page=3&technology=solar_pv');
    const request = {
      query,
      querystring: 'technology=solar_pv&per_page=3',
      base: BASE,
      publication,
      publishedDate: 'd',
    };
    const { body, link } = ocdsReleasePage(hits, request);
    expect(body.releases.map((release) => release.tag)).to.deep.equal([
      ['compiled'],
      ['compiled'],
      ['compiled'],
    ]);
    expect(body.uri).to.equal(`${BASE}/api/v1/ppas/ocds?technology=solar_pv&per_page=3`);
    expect(body.links?.next).to.match(
      /^https:\/\/api\.example\.org\/api\/v1\/ppas\/ocds\?technology=solar_pv&per_page=3&cursor=/,
    );
    expect(link).to.equal(`<${body.uri}>; rel="self", <${body.links!.next}>; rel="next"`);
    const last = ocdsReleasePage(hits.slice(0, 3), request);
    expect(last.body.links).to.equal(undefined);
    expect(ocdsReleasePage([], { ...request, querystring: '' }).body).to.include({
      uri: `${BASE}/api/v1/ppas/ocds`,
    });
  });
});
