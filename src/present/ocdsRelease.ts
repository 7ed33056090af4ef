// One PPA as the detail presents it (./ppa.ts) → an OCDS 1.1.5 release, declared once: the record package, the
// release package and the export's JSON Lines all map through here. Pure. The schema below (what it builds,
// shown in the OpenAPI document) types it: core fields as OCDS names them, and what core has no field for in the
// extension's `ppa` object (./ocdsExtension.ts). OCDS leaves a field out rather than writing null, so every absent
// value is left out of the JSON. docs/ocds.md has the table, source field → OCDS path.
import { hash } from 'node:crypto';
import { consortiumMembers, groupKey } from '../../indexContract/counterparties.js';
import { partyIdOf } from '../../indexContract/parties.js';
import { oneOf, record, Type, type Static } from '../wire/bodySchema.js';
import { PpaExtensionSchema, type PpaExtension } from './ocdsExtension.js';
import type { PresentedPpa } from './ppa.js';

/** The source's procurement methods in OCDS's closed `method` codelist; any other is left out of the tender. */
export const PROCUREMENT_METHODS: Readonly<Record<string, 'open' | 'selective' | 'limited' | 'direct'>> = {
  competitive_tender: 'open',
  direct_negotiation: 'direct',
  unsolicited_proposal: 'direct',
  feed_in_tariff: 'limited',
};

export const PARTY_ROLES = ['buyer', 'procuringEntity', 'supplier'] as const;
type PartyRole = (typeof PARTY_ROLES)[number];
/** The releaseTag codes a release of a PPA may carry (its stages), and the compiled release's. */
export const RELEASE_TAGS = [
  'tender',
  'award',
  'contract',
  'contractAmendment',
  'contractTermination',
] as const;

const dateTime = (description: string) => Type.String({ format: 'date-time', description });
const optional = Type.Optional;
const reference = record(
  { id: Type.String(), name: Type.String() },
  'A party of the release, by its id and name.',
);
const period = record({
  startDate: optional(dateTime('Start.')),
  endDate: optional(dateTime('End.')),
});

const PartySchema = record({
  id: Type.String({
    description: 'The name folded (case, accents and punctuation aside): the same in every release.',
  }),
  name: Type.String(),
  roles: Type.Array(oneOf(PARTY_ROLES), { minItems: 1, uniqueItems: true }),
});

const DocumentSchema = record({
  id: Type.String({ description: 'The title folded, unique within the contract (-2, -3… on repeats).' }),
  documentType: optional(Type.String({ description: 'The source’s OCDS documentType code.' })),
  title: Type.String(),
  url: optional(Type.String({ format: 'uri' })),
  datePublished: optional(dateTime('Publication date.')),
  format: optional(Type.String({ description: 'Media type.' })),
  language: optional(Type.String()),
});

const AmendmentSchema = record({
  id: Type.String({ description: 'The version number.' }),
  date: optional(dateTime('Date of the version.')),
  description: optional(Type.String({ description: 'What changed.' })),
});

/** A release (component OcdsRelease): the release of the PPA as served now, or its compiled release. */
export const OcdsReleaseSchema = record(
  {
    ocid: Type.String({ description: 'OCDS_OCID_PREFIX, "-", and the slug.' }),
    id: Type.String({
      description:
        'A release: the ocid and a hash of its content (new whenever the PPA changes). Compiled: "{ocid}-{date}".',
    }),
    date: dateTime('updated_at.'),
    tag: Type.Array(oneOf([...RELEASE_TAGS, 'compiled']), { minItems: 1, uniqueItems: true }),
    initiationType: oneOf(['tender']),
    parties: Type.Array(PartySchema),
    buyer: optional(reference),
    tender: optional(
      record({
        id: Type.String(),
        procurementMethod: optional(oneOf(['open', 'selective', 'limited', 'direct'])),
        procurementMethodDetails: optional(Type.String()),
        numberOfTenderers: optional(Type.Integer({ minimum: 0 })),
        tenderPeriod: optional(period),
        procuringEntity: optional(reference),
      }),
    ),
    awards: Type.Array(
      record({
        id: Type.String(),
        date: optional(dateTime('award_date.')),
        status: oneOf(['active']),
        suppliers: Type.Array(reference, { minItems: 1 }),
      }),
      { minItems: 1, maxItems: 1 },
    ),
    contracts: Type.Array(
      record({
        id: Type.String(),
        awardID: Type.String(),
        title: Type.String({ description: 'The project name.' }),
        status: oneOf(['active', 'terminated']),
        dateSigned: optional(dateTime('signed_date.')),
        period: optional(period),
        documents: optional(Type.Array(DocumentSchema, { minItems: 1 })),
        amendments: optional(Type.Array(AmendmentSchema, { minItems: 1 })),
      }),
      { minItems: 1, maxItems: 1 },
    ),
    ppa: PpaExtensionSchema,
  },
  'An OCDS 1.1.5 release of one PPA, with the project’s extension (/api/v1/ocds/extension.json).',
);
export type OcdsRelease = Static<typeof OcdsReleaseSchema>;
type Reference = Static<typeof reference>;
type Party = Static<typeof PartySchema>;

/** The ocid of a PPA: the prefix, "-", and the slug (which never changes). */
export const ocidOf = (ocidPrefix: string, slug: string): string => `${ocidPrefix}-${slug}`;

/** The release of the PPA as served now: its stages as tags, an id new whenever what it says changes. */
export function ppaRelease(ppa: PresentedPpa, ocidPrefix: string): OcdsRelease {
  const release = releaseOf(ppa, ocidPrefix);
  release.tag = RELEASE_TAGS.filter((stage) => stageReached(release, stage, ppa));
  // The hash of what the release says, its id and tag aside (they are still blank here).
  const digest = hash('sha256', JSON.stringify({ ...release, tag: [] }), 'base64url').slice(0, 16);
  release.id = `${release.ocid}-${digest}`;
  return release;
}

/** The compiled release: what the PPA's releases add up to, which is its one release under another id and tag. */
export function ppaCompiledRelease(ppa: PresentedPpa, ocidPrefix: string): OcdsRelease {
  const release = releaseOf(ppa, ocidPrefix);
  release.id = `${release.ocid}-${release.date}`;
  release.tag = ['compiled'];
  return release;
}

function stageReached(
  release: OcdsRelease,
  stage: (typeof RELEASE_TAGS)[number],
  ppa: PresentedPpa,
): boolean {
  if (stage === 'tender') return release.tender !== undefined;
  if (stage === 'contractAmendment') return release.contracts[0]?.amendments !== undefined;
  if (stage === 'contractTermination') return !ppa.active;
  return true; // every PPA is awarded to its developer and is a contract
}

// The objects below carry an absent value as `undefined`, which JSON leaves out: every body is JSON, and building
// each object once, in its order, costs a page of releases less than copying it to leave keys out.

/** The release, its id and tag blank (each kind of release sets its own). */
function releaseOf(ppa: PresentedPpa, ocidPrefix: string): OcdsRelease {
  const ocid = ocidOf(ocidPrefix, ppa.slug);
  const { parties, buyer, procuringEntity, suppliers } = partiesOf(ppa);
  const awardID = `${ocid}-award`;
  return {
    ocid,
    id: '',
    date: ppa.updated_at,
    tag: [],
    initiationType: 'tender',
    parties,
    buyer,
    tender: tenderOf(ppa, ocid, procuringEntity),
    awards: [{ id: awardID, date: dateTimeOf(ppa.procurement.award_date), status: 'active', suppliers }],
    contracts: [contractOf(ppa, ocid, awardID)],
    ppa: ppaExtension(ppa),
  };
}

/** The offtaker (buyer), the procuring entity and each member of the developer's consortium (supplier). */
function partiesOf(ppa: PresentedPpa) {
  const parties = new Map<string, Party>();
  const add = (name: string | null, role: PartyRole): Reference | undefined => {
    const trimmed = name?.trim();
    if (!trimmed) return undefined;
    const id = partyId(trimmed);
    let party = parties.get(id);
    if (!party) parties.set(id, (party = { id, name: trimmed, roles: [] }));
    if (!party.roles.includes(role)) party.roles.push(role);
    return { id, name: party.name };
  };
  const buyer = add(ppa.offtaker.name, 'buyer');
  const procuringEntity = add(ppa.procurement.procuring_entity, 'procuringEntity');
  const suppliers = new Map<string, Reference>();
  for (const member of consortiumMembers(ppa.developer)) {
    const supplier = add(member, 'supplier');
    if (supplier) suppliers.set(supplier.id, supplier);
  }
  return { parties: [...parties.values()], buyer, procuringEntity, suppliers: [...suppliers.values()] };
}

/** A name's id: the id of its party (indexContract/parties.ts), as GET /api/v1/parties/{id} serves it. */
export const partyId = (name: string): string => partyIdOf(name);

/** Names without a letter beyond ASCII take the faster pattern (the same result). */
const ASCII = /^[ -~]*$/;

/** Letters and digits, each run of anything else one "-": "Rede Elétrica (SA)" → "rede-eletrica-sa" once folded. */
function identifierOf(folded: string): string {
  const separated = ASCII.test(folded)
    ? folded.replace(/[^a-z0-9]+/g, '-')
    : folded.replace(/[^\p{L}\p{N}]+/gu, '-');
  const start = separated.startsWith('-') ? 1 : 0;
  const end = separated.length - (separated.length > start && separated.endsWith('-') ? 1 : 0);
  return separated.slice(start, end);
}

function tenderOf(ppa: PresentedPpa, ocid: string, procuringEntity: Reference | undefined) {
  const { method, method_details, number_of_bidders, tender_start, tender_end } = ppa.procurement;
  const known =
    method !== null ||
    method_details !== null ||
    number_of_bidders !== null ||
    tender_start !== null ||
    tender_end !== null ||
    procuringEntity !== undefined;
  if (!known) return undefined;
  const period = tender_start !== null || tender_end !== null;
  return {
    id: `${ocid}-tender`,
    procurementMethod: method === null ? undefined : PROCUREMENT_METHODS[method],
    procurementMethodDetails: method_details ?? undefined,
    numberOfTenderers: number_of_bidders ?? undefined,
    tenderPeriod: period
      ? { startDate: dateTimeOf(tender_start), endDate: dateTimeOf(tender_end) }
      : undefined,
    procuringEntity,
  };
}

function contractOf(ppa: PresentedPpa, ocid: string, awardID: string): OcdsRelease['contracts'][number] {
  const { signed_date, cod_date, term_years } = ppa.contract;
  const start = dateTimeOf(cod_date ?? signed_date);
  const end = start !== undefined && term_years !== null ? yearsAfter(start, term_years) : undefined;
  const documents = ppa.documents.length > 0 ? documentsOf(ppa.documents) : undefined;
  return {
    id: `${ocid}-contract`,
    awardID,
    title: ppa.project_name,
    status: ppa.active ? 'active' : 'terminated',
    dateSigned: dateTimeOf(signed_date),
    period: start ? { startDate: start, endDate: end } : undefined,
    documents,
    amendments: ppa.versions.length > 1 ? amendmentsOf(ppa.versions) : undefined,
  };
}

function documentsOf(attachments: PresentedPpa['documents']): Static<typeof DocumentSchema>[] {
  const seen = new Map<string, number>();
  return attachments.map((attachment) => {
    const base = identifierOf(groupKey(attachment.title)) || 'document';
    const repeat = (seen.get(base) ?? 0) + 1;
    seen.set(base, repeat);
    return {
      id: repeat === 1 ? base : `${base}-${repeat}`,
      documentType: attachment.document_type ?? undefined,
      title: attachment.title,
      url: attachment.url ?? undefined,
      datePublished: dateTimeOf(attachment.published_on),
      format: attachment.format ?? undefined,
      language: attachment.language ?? undefined,
    };
  });
}

/** One amendment per version after the first (by number), oldest first. */
function amendmentsOf(versions: PresentedPpa['versions']): Static<typeof AmendmentSchema>[] {
  const ordered = [...versions].sort((a, b) => a.version - b.version);
  return ordered.slice(1).map((version) => ({
    id: String(version.version),
    date: dateTimeOf(version.date),
    description: version.summary ?? undefined,
  }));
}

function ppaExtension(ppa: PresentedPpa): PpaExtension {
  const { contract, fiscal } = ppa;
  return {
    referenceCode: ppa.reference_code,
    technology: ppa.technology,
    capacityMW: ppa.capacity_mw,
    tariff: ppa.tariff,
    currency: contract.currency ?? undefined,
    energyRatePerKWh: contract.energy_rate_per_kwh ?? undefined,
    capacityRatePerKWMonth: contract.capacity_rate_per_kw_month ?? undefined,
    termYears: contract.term_years ?? undefined,
    commercialOperationDate: dateTimeOf(contract.cod_date),
    financialCloseYear: ppa.financial_close_year ?? undefined,
    riskFeatures: ppa.risk_features.length > 0 ? ppa.risk_features : undefined,
    annualPaymentObligationUSD: fiscal.annual_payment_obligation_usd ?? undefined,
    guaranteedAmountUSD: fiscal.guaranteed_amount_usd ?? undefined,
    terminationPaymentUSD: fiscal.termination_payment_usd ?? undefined,
    countryCode: ppa.country_code ?? undefined,
    location: ppa.location,
    offtakerType: ppa.offtaker.type ?? undefined,
    procurementMethod: ppa.procurement.method ?? undefined,
    firstPublished: ppa.published_at ?? undefined,
  };
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** OCDS dates are date-times: a calendar date is its midnight UTC ("2018-05-15" → "2018-05-15T00:00:00Z"). */
export function dateTimeOf(value: string | null): string | undefined {
  if (value === null) return undefined;
  return CALENDAR_DATE.test(value) ? `${value}T00:00:00Z` : value;
}

/** The same day `years` later (29 February becomes 1 March in a common year). */
function yearsAfter(dateTimeValue: string, years: number): string {
  const year = Number(dateTimeValue.slice(0, 4)) + years;
  const rest = dateTimeValue.slice(4);
  // A calendar date's midnight (dateTimeOf): the year moves, and only 29 February may not exist then.
  if (year <= 9999 && /^-\d{2}-\d{2}T00:00:00Z$/.test(rest)) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return `${year}${rest.startsWith('-02-29') && !leap ? '-03-01T00:00:00Z' : rest}`;
  }
  const date = new Date(dateTimeValue);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().replace('.000Z', 'Z');
}
