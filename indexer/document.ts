// Record → index document: exactly the fields of mappings/ppas.json. Pure, so it is unit-tested without a server.
import { foldText, nameSortKey } from '../src/text/fold.js';
import { canonicalUtc } from '../src/text/timestamp.js';
import { droppedLetterSpellings } from '../src/text/typos.js';
import type { Contract, Fiscal, Offtaker, PpaDocument, PpaRecord, Procurement, Version } from './record.js';

export interface IndexDocument {
  slug: string;
  reference_code: string;
  project_name: string;
  developer: string;
  location: string;
  name_sort: string;
  name_folded: string;
  /** Each name word of 5+ letters with one letter (not the first) dropped: "solar" → "slar", "soar", "solr", "sola". */
  name_dropped_letter: string[];
  developer_folded: string;
  location_folded: string;
  reference_code_folded: string;
  country_code: string | null;
  technology: string;
  tariff: string;
  risk_features: string[];
  capacity_mw: number;
  financial_close_year: number | null;
  active: boolean;
  published_at: string | null;
  updated_at: string;
  fiscal: Fiscal;
  offtaker: Offtaker;
  contract: Contract;
  procurement: Procurement;
  versions: Version[];
  documents: PpaDocument[];
}

/** ISO 8601 UTC with `Z`; milliseconds only when the source had them ("2024-03-01T12:00:00Z"). */
export function toUtcTimestamp(timestamp: string): string {
  const canonical = canonicalUtc(timestamp);
  if (canonical === null) throw new Error(`not a timestamp: ${JSON.stringify(timestamp)}`);
  return canonical;
}

// The detail endpoint shows every key of these objects; a source may omit keys, so fill them with null here.
function withAllKeys<T extends object>(keys: readonly (keyof T)[], value: Partial<T> | null | undefined): T {
  const shaped = {} as Record<keyof T, unknown>;
  for (const key of keys) shaped[key] = value?.[key] ?? null;
  return shaped as T;
}

const OFFTAKER_KEYS = ['name', 'type'] as const;
const CONTRACT_KEYS = [
  'signed_date',
  'term_years',
  'cod_date',
  'currency',
  'energy_rate_per_kwh',
  'capacity_rate_per_kw_month',
] as const;
const FISCAL_KEYS = [
  'annual_payment_obligation_usd',
  'guaranteed_amount_usd',
  'termination_payment_usd',
] as const;
const PROCUREMENT_KEYS = [
  'method',
  'method_details',
  'number_of_bidders',
  'tender_start',
  'tender_end',
  'award_date',
  'procuring_entity',
] as const;
const VERSION_KEYS = ['version', 'date', 'summary'] as const;
const DOCUMENT_KEYS = ['title', 'document_type', 'url', 'published_on', 'format', 'language'] as const;

// name_dropped_letter: see src/text/typos.ts (the search looks typed four-letter words up there).
export { droppedLetterSpellings };

export function buildDocument(record: PpaRecord): IndexDocument {
  return {
    slug: record.slug,
    reference_code: record.reference_code,
    project_name: record.project_name,
    developer: record.developer,
    location: record.location,
    name_sort: nameSortKey(record.project_name),
    name_folded: foldText(record.project_name),
    name_dropped_letter: droppedLetterSpellings(record.project_name),
    developer_folded: foldText(record.developer),
    location_folded: foldText(record.location),
    reference_code_folded: foldText(record.reference_code),
    country_code: record.country_code ?? null,
    technology: record.technology,
    tariff: record.tariff,
    risk_features: record.risk_features ?? [],
    capacity_mw: record.capacity_mw,
    financial_close_year: record.financial_close_year ?? null,
    active: record.active,
    published_at: record.published_at ? toUtcTimestamp(record.published_at) : null,
    updated_at: toUtcTimestamp(record.updated_at),
    fiscal: withAllKeys<Fiscal>(FISCAL_KEYS, record.fiscal),
    offtaker: withAllKeys<Offtaker>(OFFTAKER_KEYS, record.offtaker),
    contract: withAllKeys<Contract>(CONTRACT_KEYS, record.contract),
    procurement: withAllKeys<Procurement>(PROCUREMENT_KEYS, record.procurement),
    versions: (record.versions ?? []).map((version) => withAllKeys<Version>(VERSION_KEYS, version)),
    documents: (record.documents ?? []).map((document) => withAllKeys<PpaDocument>(DOCUMENT_KEYS, document)),
  };
}
