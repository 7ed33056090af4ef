import { expect } from 'chai';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { ocdsRecordPackage, ocdsReleasePackage } from '../../../../src/present/ocdsPackage.js';
import { ppaCompiledRelease, type OcdsRelease } from '../../../../src/present/ocdsRelease.js';
import { presentPpa } from '../../../../src/present/ppa.js';
import { createOcdsValidator, mergePatch } from '../../../support/ocdsValidator.js';
import { records } from '../../../support/sampleOracle.js';

const BASE = 'https://api.example.org';
const request = {
  publication: { ocidPrefix: 'ocds-unregistered', publisherName: 'PPA search API' },
  base: BASE,
  uri: `${BASE}/api/v1/ppas/ocds`,
  publishedDate: '2026-01-02T03:04:05Z',
};
const sample = records
  .filter((record) => record.published)
  .map((record) => presentPpa(buildDocument(record), BASE));
/** A sample PPA with a buyer, a tender and documents, compiled. */
function release(): OcdsRelease {
  const ppa = sample.find((p) => p.offtaker.name && p.procurement.tender_start && p.documents.length > 0)!;
  return ppaCompiledRelease(ppa, 'ocds-unregistered');
}

describe('test support: the OCDS validator', function () {
  this.timeout(20_000);
  const validator = createOcdsValidator();

  it('passes a good release; reports a date left as YYYY-MM-DD', () => {
    const broken = release();
    expect(validator.release(broken)).to.deep.equal([]);
    broken.contracts[0]!.dateSigned = '2018-05-15';
    expect(validator.release(broken)).to.deep.equal([
      '/contracts/0/dateSigned: must match format "date-time" {"format":"date-time"}',
    ]);
  });

  it('reports a dangling party reference', () => {
    const broken = release();
    broken.awards[0]!.suppliers[0]!.id = 'nobody';
    expect(validator.release(broken)).to.deep.equal([
      '/awards/0/suppliers/0: references party "nobody", which is not in parties',
    ]);
  });

  it('reports an unknown role, and a party without the role it is referenced for', () => {
    const broken = release();
    const buyer = broken.parties.find((party) => party.id === broken.buyer?.id)!;
    (buyer.roles as string[]) = ['purchaser'];
    const problems = validator.release(broken);
    expect(problems[0]).to.equal(
      `/parties/${broken.parties.indexOf(buyer)}/roles: "purchaser" is not in partyRole.csv`,
    );
    expect(problems).to.include(`/buyer: party ${buyer.id} lacks the role buyer`);
  });

  it('reports a documentType outside the codelist and its additions, an undeclared field, an empty one, a repeated id', () => {
    const broken = release() as OcdsRelease & { colour?: string };
    broken.contracts[0]!.documents![0]!.documentType = 'memo';
    broken.colour = 'green';
    broken.contracts[0]!.documents![1] = { ...broken.contracts[0]!.documents![0]!, title: '' };
    expect(validator.release(broken)).to.deep.equal([
      '/contracts/0/documents: repeated id values ' +
        JSON.stringify(broken.contracts[0]!.documents!.map((document) => document.id)),
      '/contracts/0/documents/0/documentType: "memo" is not in documentType.csv',
      '/contracts/0/documents/1/documentType: "memo" is not in documentType.csv',
      '/contracts/0/documents/1/title: empty field (""): leave it out',
      '/colour: additional field the schema and the extension do not declare',
    ]);
  });

  it('every sample PPA’s record package validates, and a release package of them', () => {
    const problems = sample.flatMap((ppa) => validator.recordPackage(ocdsRecordPackage(ppa, request)));
    expect(problems).to.deep.equal([]);
    const releases = sample.slice(0, 100).map((ppa) => ppaCompiledRelease(ppa, 'ocds-unregistered'));
    expect(validator.releasePackage(ocdsReleasePackage(releases, request, `${BASE}/next`))).to.deep.equal([]);
  });

  it('checks the package too: its links are declared by the extension, a bad uri is not', () => {
    const body = ocdsReleasePackage([release()], request, 'not a url');
    expect(validator.releasePackage(body)).to.deep.equal([
      '/links/next: must match format "uri" {"format":"uri"}',
    ]);
  });

  it('merges a patch as JSON Merge Patch (RFC 7396)', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: null, e: 3 }, d: [2] })).to.deep.equal({
      a: { c: 2, e: 3 },
      d: [2],
    });
  });
});
