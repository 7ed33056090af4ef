import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import {
  ADDED_DOCUMENT_TYPES,
  addedDocumentTypesCsv,
  extensionMetadata,
  extensionReleasePackageSchema,
  extensionReleaseSchema,
  extensionUrl,
  PpaExtensionSchema,
} from '../../../../src/present/ocdsExtension.js';

type Json = Record<string, unknown>;

describe('api present: the OCDS extension', () => {
  it('release-schema.json declares every field of `ppa`, each with a title and a description, in draft-04 terms', () => {
    const ppa = (extensionReleaseSchema().properties as Json).ppa as Json;
    expect(ppa.type).to.equal('object');
    const declared = ppa.properties as Record<string, Json>;
    expect(Object.keys(declared)).to.deep.equal(Object.keys(PpaExtensionSchema.properties));
    for (const [name, field] of Object.entries(declared)) {
      expect(field.title, name).to.be.a('string');
      expect(field.description, name).to.be.a('string');
      expect(field.type, name).to.be.oneOf(['string', 'number', 'integer', 'array']);
    }
  });

  it('release-package-schema.json declares links.next', () => {
    const links = (extensionReleasePackageSchema().properties as Json).links as Json;
    expect((links.properties as Json).next).to.include({ type: 'string', format: 'uri' });
  });

  it('extension.json names the schemas and the codelist it patches, and where its documentation is', () => {
    expect(extensionMetadata('https://api.example.org/')).to.deep.include({
      compatibility: ['1.1'],
      schemas: ['release-schema.json', 'release-package-schema.json'],
      codelists: ['+documentType.csv'],
      documentationUrl: { en: 'https://api.example.org/api/v1/docs' },
    });
    expect(extensionUrl('https://api.example.org')).to.equal(
      'https://api.example.org/api/v1/ocds/extension.json',
    );
  });

  it('+documentType.csv has the core codelist’s columns and the added codes, guaranteeReports among them', () => {
    const rows = parseCsv(addedDocumentTypesCsv(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).to.deep.equal(['Category', 'Section', 'Code', 'Title', 'Description']);
    expect(rows.map((row) => row.Code)).to.deep.equal(ADDED_DOCUMENT_TYPES.map(({ code }) => code));
    expect(rows.map((row) => row.Code)).to.include('guaranteeReports');
  });
});
