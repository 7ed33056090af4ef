// The project's OCDS extension, declared once: what a PPA has that core OCDS 1.1.5 has no field for. Each field of
// a release's `ppa` object is one row below (its title, description and JSON Schema): the rows make the object's
// schema (which types the mapping, ./ocdsRelease.ts, and shows in the OpenAPI document) and the extension's
// release-schema.json (a JSON Merge Patch in OCDS's own style, titles included). Beside them: extension.json, the
// package patch that declares `links` (a release package's paging), and the documentType codes the source uses that
// the core codelist lacks (+documentType.csv). Served under /api/v1/ocds/ (src/operations/ocdsExtensionFile.ts).
import { API_PATHS, apiPath } from '../http/apiPath.js';
import { Type, type Static, type TSchema } from '../wire/bodySchema.js';
import { csvRows } from './csv.js';
import { trimSlash } from './ppa.js';

/** Where the extension is served: extension.json, and the files it names beside it. */
export const OCDS_EXTENSION_PATH = apiPath('/ocds');

/** The files of the extension that extension.json names (codelists under codelists/). */
export const EXTENSION_SCHEMA_FILES = ['release-schema.json', 'release-package-schema.json'] as const;
export const EXTENSION_CODELIST_FILES = ['+documentType.csv'] as const;

interface ExtensionField {
  title: string;
  description: string;
  schema: TSchema;
}

const field = <S extends TSchema>(title: string, description: string, schema: S) => ({
  title,
  description,
  schema,
});
const amount = (title: string, description: string) => field(title, description, Type.Number({ minimum: 0 }));
const dateTime = (title: string, description: string) =>
  field(title, description, Type.String({ format: 'date-time' }));
const token = (title: string, description: string) =>
  field(title, description, Type.String({ pattern: '^[a-z0-9_]+$' }));

/** The `ppa` object's fields, in the order a release shows them. */
const PPA_FIELDS = {
  referenceCode: field(
    'Reference code',
    'The reference code of the agreement, as the publisher gives it.',
    Type.String(),
  ),
  technology: token('Technology', 'How the power is generated (open set: solar_pv, wind, hydro, …).'),
  capacityMW: amount('Installed capacity (MW)', 'The installed capacity of the plant, in megawatts.'),
  tariff: token(
    'Tariff structure',
    'How the power is paid for (open set: energy_only, capacity_and_energy, …).',
  ),
  currency: field(
    'Contract currency',
    'The currency of the rates, ISO 4217.',
    Type.String({ pattern: '^[A-Z]{3}$' }),
  ),
  energyRatePerKWh: amount('Energy rate per kWh', 'The energy rate per kWh, in the contract currency.'),
  capacityRatePerKWMonth: amount(
    'Capacity rate per kW and month',
    'The capacity rate per kW and month, in the contract currency.',
  ),
  termYears: field('Term (years)', 'The term of the agreement, in years.', Type.Integer({ minimum: 0 })),
  commercialOperationDate: dateTime(
    'Commercial operation date',
    'When the plant started (or is to start) commercial operation.',
  ),
  financialCloseYear: field(
    'Financial close year',
    'The year the project reached financial close.',
    Type.Integer({ minimum: 1900, maximum: 2100 }),
  ),
  riskFeatures: field(
    'Risk features',
    'The risk features of the agreement (open set: take_or_pay, government_guarantee, …).',
    Type.Array(Type.String({ pattern: '^[a-z0-9_]+$' }), { minItems: 1, uniqueItems: true }),
  ),
  annualPaymentObligationUSD: amount(
    'Annual payment obligation (USD)',
    'The annual payment obligation of the offtaker, in US dollars: a fiscal commitment.',
  ),
  guaranteedAmountUSD: amount(
    'Guaranteed amount (USD)',
    'The amount the government guarantees, in US dollars: a contingent liability.',
  ),
  terminationPaymentUSD: amount(
    'Termination payment (USD)',
    'The payment due on termination, in US dollars: a contingent liability.',
  ),
  countryCode: field(
    'Country',
    'The country of the plant, ISO 3166-1 alpha-2.',
    Type.String({ pattern: '^[A-Z]{2}$' }),
  ),
  location: field('Location', 'Where the plant is, in words.', Type.String()),
  offtakerType: token('Offtaker type', 'What kind of organization the offtaker (the buyer) is (open set).'),
  procurementMethod: token(
    'Procurement method (source)',
    "The source's own procurement method (competitive_tender, direct_negotiation, unsolicited_proposal, " +
      'feed_in_tariff, …), which tender.procurementMethod gives in the closed codelist.',
  ),
  firstPublished: dateTime('First published', 'When the PPA entered the public catalogue.'),
} satisfies Record<string, ExtensionField>;

type PpaFieldName = keyof typeof PPA_FIELDS;
type PpaFields = { [K in PpaFieldName]: (typeof PPA_FIELDS)[K]['schema'] };

const PPA_TITLE = 'Power purchase agreement';
const PPA_DESCRIPTION =
  'What a power purchase agreement has that core OCDS has no field for: the plant, the tariff and its rates, ' +
  'the term, the fiscal commitments and contingent liabilities, and the risk features. Absent values are left out.';

const ppaProperties = Object.fromEntries(
  Object.entries(PPA_FIELDS).map(([name, { description, schema }]) => [
    name,
    Type.Optional({ ...schema, description }),
  ]),
) as unknown as { [K in PpaFieldName]: ReturnType<typeof Type.Optional<PpaFields[K]>> };

/** The release's `ppa` object (the OpenAPI document's view: descriptions, no titles). */
export const PpaExtensionSchema = Type.Object(ppaProperties, {
  additionalProperties: false,
  description: `${PPA_DESCRIPTION} Declared by the project's OCDS extension (/api/v1/ocds/extension.json).`,
});
export type PpaExtension = Static<typeof PpaExtensionSchema>;

/** A JSON Schema without the TypeBox markers (symbols drop out of JSON). */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as never;

/** release-schema.json: the JSON Merge Patch of the release schema, every field with its title and description. */
export function extensionReleaseSchema(): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(PPA_FIELDS).map(([name, { title, description, schema }]) => [
      name,
      { title, description, ...plain(schema) },
    ]),
  );
  return {
    properties: {
      ppa: { title: PPA_TITLE, description: PPA_DESCRIPTION, type: 'object', properties },
    },
  };
}

/** release-package-schema.json: `links.next`, how a release package of the API pages on. */
export function extensionReleasePackageSchema(): Record<string, unknown> {
  return {
    properties: {
      links: {
        title: 'Links',
        description: 'Links to other packages of the same request.',
        type: 'object',
        properties: {
          next: {
            title: 'Next page',
            description: 'The URL of the next package of the same request; absent on the last.',
            type: 'string',
            format: 'uri',
          },
        },
      },
    },
  };
}

/** The documentType codes the source uses that core OCDS 1.1.5 lacks, with OCDS's codelist columns. */
export const ADDED_DOCUMENT_TYPES = [
  {
    category: 'advanced',
    section: 'contract',
    code: 'guaranteeReports',
    title: 'Guarantee reports',
    description:
      'Reports on the fiscal commitments and contingent liabilities of the government under the contract ' +
      '(guarantees, payment obligations, termination payments): the PPP disclosure framework’s code.',
  },
  {
    category: 'intermediate',
    section: 'contract',
    code: 'contractAmendment',
    title: 'Contract amendment',
    description: 'An amendment to the signed contract, or a document that describes one.',
  },
] as const;

/** +documentType.csv: the added codes, in the core codelist's columns. */
export function addedDocumentTypesCsv(): string {
  return csvRows([
    ['Category', 'Section', 'Code', 'Title', 'Description'],
    ...ADDED_DOCUMENT_TYPES.map(({ category, section, code, title, description }) => [
      category,
      section,
      code,
      title,
      description,
    ]),
  ]);
}

/** The absolute URL of extension.json, which every package lists in `extensions`. */
export function extensionUrl(base: string): string {
  return `${trimSlash(base)}${OCDS_EXTENSION_PATH}/extension.json`;
}

/** extension.json: the extension's metadata, in OCDS's extension format. */
export function extensionMetadata(base: string): Record<string, unknown> {
  return {
    name: { en: 'Power purchase agreements' },
    description: {
      en:
        'Adds the `ppa` object to a release: what a power purchase agreement has that core OCDS has no field ' +
        'for (the plant, the tariff and its rates, the term, the fiscal commitments and contingent liabilities, ' +
        'the risk features). Adds `links.next` to a release package, and the documentType codes the source uses.',
    },
    documentationUrl: { en: `${trimSlash(base)}${API_PATHS.docs}` },
    compatibility: ['1.1'],
    schemas: [...EXTENSION_SCHEMA_FILES],
    codelists: [...EXTENSION_CODELIST_FILES],
  };
}
