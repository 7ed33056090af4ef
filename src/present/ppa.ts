// Index document → API JSON for one PPA: the list item and the detail. Every key of the shape is always
// present (unknown: null, empty collections: []), timestamps are ISO 8601 UTC with `Z`.
import {
  ATTACHMENT_KEYS,
  CONTRACT_KEYS,
  FISCAL_KEYS,
  OFFTAKER_KEYS,
  PROCUREMENT_KEYS,
  VERSION_KEYS,
  withKeys,
} from '../../indexContract/document.js';
import { FLAG_CODES, type FlagCode, type FlagEvidence } from '../../indexContract/flags.js';
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';
import { canonicalUtc } from '../../indexContract/text/timestamp.js';
import { API_PATHS } from '../http/apiPath.js';
import {
  date,
  megawatts,
  nullable,
  optionalAmount,
  optionalInteger,
  optionalString,
  optionalText,
  record,
  ref,
  text,
  timestamp,
  token,
  Type,
  type Static,
} from '../wire/bodySchema.js';
import type { Highlights } from '../matching/highlight/itemHighlights.js';
import { HighlightsSchema } from './highlights.js';

/** One raised flag's evidence on the detail (indexContract/flags.ts: FlagEvidence). */
const FlagEvidenceSchema = Type.Unsafe<FlagEvidence>(
  record({
    code: Type.String({ enum: [...FLAG_CODES], description: 'The flag raised.' }),
    inputs: Type.Unsafe<FlagEvidence['inputs']>({
      type: 'object',
      additionalProperties: true,
      description: "The record's values the rule read (and the days it counted), null when unknown.",
    }),
    explanation: text('Why the flag is raised: a sentence with the numbers.'),
    peers: Type.Optional(
      record({
        technology: token('Technology of the peer group.'),
        currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'Currency of the peer group.' }),
        count: Type.Integer({
          minimum: 0,
          description: 'Published, active PPAs of the group with a known rate.',
        }),
        q1: Type.Number({ description: 'First quartile of their rates (type 7).' }),
        q3: Type.Number({ description: 'Third quartile of their rates (type 7).' }),
        fence: Type.Number({ description: 'Q3 + 1.5 × (Q3 − Q1): a rate above it is an outlier.' }),
      }),
    ),
  }),
);

const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** Every field of a PPA as the list shows it (the `fields` parameter may choose fewer: ListItem). */
export const ppaSummaryProperties = {
  slug: Type.String({ pattern: SLUG_PATTERN, maxLength: 120, description: 'Stable identifier.' }),
  project_name: text('Project name.'),
  developer: text('Developer (sponsor) name.'),
  reference_code: text('Reference code of the agreement.'),
  location: text('Free-text location.'),
  country_code: nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' })),
  technology: token('Technology token (open set: solar_pv, wind, hydro, …).'),
  tariff: token('Tariff structure token (open set: energy_only, capacity_and_energy, …).'),
  capacity_mw: megawatts('Installed capacity in MW.'),
  financial_close_year: optionalInteger({ minimum: 1900, maximum: 2100, description: 'Financial close.' }),
  risk_features: Type.Array(token('Risk feature token.'), {
    uniqueItems: true,
    description: 'Risk features of the agreement (open set).',
  }),
  flags: Type.Array(
    Type.Unsafe<FlagCode>({ type: 'string', enum: [...FLAG_CODES], description: 'Red flag code.' }),
    {
      uniqueItems: true,
      description:
        "The red flags raised (GET /api/v1/flags: what each means), in the methodology table's order; [] when none.",
    },
  ),
  published_at: nullable(timestamp('When the record entered the public catalogue (UTC).')),
  updated_at: timestamp('Last change of the record (UTC).'),
  url: Type.String({ format: 'uri', description: 'Absolute URL of this PPA in the API.' }),
};

const ppaSummary = record(ppaSummaryProperties);
export type PpaListItem = Static<typeof ppaSummary>;

/**
 * A list item: every field, or those `fields` chose plus slug and url; highlights with highlight=true and q; the
 * flags' evidence when `fields` names it.
 */
export type ListItem = Partial<PpaListItem> &
  Pick<PpaListItem, 'slug' | 'url'> & { highlights?: Highlights; flag_evidence?: FlagEvidence[] };

const flagEvidenceList = (description: string) => Type.Array(FlagEvidenceSchema, { description });

export const PpaListItemSchema = Type.Unsafe<ListItem>({
  ...ppaSummary,
  properties: {
    ...ppaSummary.properties,
    highlights: HighlightsSchema,
    flag_evidence: flagEvidenceList(
      'Only when `fields` names it (never by default): the evidence of each raised flag, as on the detail.',
    ),
  },
  required: ['slug', 'url'],
  description:
    'A published, active PPA as the list shows it: every field, or only those `fields` names (slug and url always).',
});

export const PpaDetailSchema = record(
  {
    ...ppaSummaryProperties,
    active: Type.Boolean({ description: 'Whether the PPA is active (the list shows only active ones).' }),
    offtaker: record({ name: optionalText('Offtaker name.'), type: optionalText('Offtaker type token.') }),
    contract: record({
      signed_date: date('Date signed.'),
      term_years: optionalInteger({ minimum: 0, description: 'Term in years.' }),
      cod_date: date('Commercial operation date.'),
      currency: optionalString({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency.' }),
      energy_rate_per_kwh: optionalAmount('Energy rate per kWh, in the contract currency.'),
      capacity_rate_per_kw_month: optionalAmount('Capacity rate per kW and month, in the contract currency.'),
    }),
    fiscal: record({
      annual_payment_obligation_usd: optionalAmount('Annual payment obligation, USD.'),
      guaranteed_amount_usd: optionalAmount('Amount guaranteed by the government, USD.'),
      termination_payment_usd: optionalAmount('Termination payment, USD.'),
    }),
    procurement: record({
      method: optionalText('Procurement method token (competitive_tender, direct_negotiation, …).'),
      method_details: optionalText('Programme or details of the method.'),
      number_of_bidders: optionalInteger({ minimum: 0, description: 'Number of bidders.' }),
      tender_start: date('Tender start.'),
      tender_end: date('Tender end.'),
      award_date: date('Award date.'),
      procuring_entity: optionalText('Procuring entity.'),
    }),
    versions: Type.Array(
      record({
        version: Type.Integer({ minimum: 0 }),
        date: date('Date of the version.'),
        summary: optionalText('What changed.'),
      }),
      { description: 'Versions of the record, newest first (by date, then version number).' },
    ),
    documents: Type.Array(
      record({
        title: text('Document title.'),
        document_type: optionalText('OCDS document type code (contractSigned, …).'),
        url: optionalString({ format: 'uri', description: 'Where the document is published.' }),
        published_on: date('Publication date.'),
        format: optionalText('Media type, e.g. application/pdf.'),
        language: optionalText('Language code.'),
      }),
      { description: 'Documents, in the order the source lists them.' },
    ),
    flag_evidence: flagEvidenceList(
      'One object per raised flag, in the order of `flags`: what its rule read, and why it is raised.',
    ),
  },
  'A published PPA (active or not) with procurement, versions and documents. Unknown values are null.',
);
export type PpaDetail = Static<typeof PpaDetailSchema>;
/** A PPA's served fields as the detail shows them, without the flags' evidence (which OCDS has no place for). */
export type PresentedPpa = Omit<PpaDetail, 'flag_evidence'>;

export const PpaDetailResponseSchema = record({ data: ref('PpaDetail', PpaDetailSchema) });

/** The absolute URL of a PPA: `base` is PUBLIC_BASE_URL or the request's origin (no trailing slash needed). */
export function ppaUrl(base: string, slug: string): string {
  return `${trimSlash(base)}${API_PATHS.ppas}/${encodeURIComponent(slug)}`;
}

export function trimSlash(base: string): string {
  return base.replace(/\/+$/, '');
}

export function presentListItem(source: ListSource, base: string): PpaListItem {
  return {
    slug: source.slug,
    project_name: source.project_name,
    developer: source.developer,
    reference_code: source.reference_code,
    location: source.location,
    country_code: source.country_code ?? null,
    technology: source.technology,
    tariff: source.tariff,
    capacity_mw: source.capacity_mw,
    financial_close_year: source.financial_close_year ?? null,
    risk_features: source.risk_features ?? [],
    flags: source.flags ?? [],
    published_at: utcTimestamp(source.published_at),
    // Always a timestamp in the index (the record requires it): kept as it is should it not parse.
    updated_at: utcTimestamp(source.updated_at) ?? source.updated_at,
    url: ppaUrl(base, source.slug),
  };
}

/** The detail: the PPA's served fields and the evidence of its flags (derived by the caller: flagEvidence). */
export function presentDetail(source: DetailSource, base: string, evidence: FlagEvidence[]): PpaDetail {
  return Object.assign(presentPpa(source, base), { flag_evidence: evidence });
}

export function presentPpa(source: DetailSource, base: string): PresentedPpa {
  // version and title are required by the record (mappings/record.schema.json): never null.
  const versions = (source.versions ?? []).map((version) => ({
    ...withKeys(VERSION_KEYS, version),
    version: version.version,
  }));
  // The list item's object gains the detail's keys in place: a spread of it into a new literal cost V8 several
  // times the rest of this function (it matters for the release package, which presents a page of details).
  return Object.assign(presentListItem(source, base), {
    active: source.active,
    offtaker: withKeys(OFFTAKER_KEYS, source.offtaker),
    contract: withKeys(CONTRACT_KEYS, source.contract),
    fiscal: withKeys(FISCAL_KEYS, source.fiscal),
    procurement: withKeys(PROCUREMENT_KEYS, source.procurement),
    versions: versions.sort(newestFirst),
    documents: (source.documents ?? []).map((attachment) => ({
      ...withKeys(ATTACHMENT_KEYS, attachment),
      title: attachment.title,
    })),
  });
}

interface VersionLike {
  version: number | null;
  date: string | null;
}

/** Newest first: by date (undated last), then by version number. */
export function newestFirst(a: VersionLike, b: VersionLike): number {
  if (a.date !== b.date) {
    if (a.date === null) return 1;
    if (b.date === null) return -1;
    return a.date < b.date ? 1 : -1;
  }
  return (b.version ?? Number.MIN_SAFE_INTEGER) - (a.version ?? Number.MIN_SAFE_INTEGER);
}

/** ISO 8601 UTC with `Z`, milliseconds only when there are some (as the indexer writes them). */
export function utcTimestamp(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : canonicalUtc(value);
}
