// Index document → API JSON for one PPA: the list item and the detail. Every key of the shape is always
// present (unknown: null, empty collections: []), timestamps are ISO 8601 UTC with `Z`.
import type { DetailSource, ListSource } from '../search/document.js';
import { canonicalUtc } from '../text/timestamp.js';

export const PPAS_PATH = '/api/v1/ppas';

export interface PpaListItem {
  slug: string;
  project_name: string;
  developer: string;
  reference_code: string;
  location: string;
  country_code: string | null;
  technology: string;
  tariff: string;
  capacity_mw: number;
  financial_close_year: number | null;
  risk_features: string[];
  published_at: string | null;
  updated_at: string | null;
  url: string;
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

export interface PpaDetail extends PpaListItem {
  active: boolean;
  offtaker: Nullable<DetailSource['offtaker']>;
  contract: Nullable<DetailSource['contract']>;
  fiscal: Nullable<DetailSource['fiscal']>;
  procurement: Nullable<DetailSource['procurement']>;
  versions: Nullable<DetailSource['versions'][number]>[];
  documents: Nullable<DetailSource['documents'][number]>[];
}

/** The absolute URL of a PPA: `base` is PUBLIC_BASE_URL or the request's origin (no trailing slash needed). */
export function ppaUrl(base: string, slug: string): string {
  return `${trimSlash(base)}${PPAS_PATH}/${encodeURIComponent(slug)}`;
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
    published_at: utcTimestamp(source.published_at),
    updated_at: utcTimestamp(source.updated_at),
    url: ppaUrl(base, source.slug),
  };
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

export function presentPpa(source: DetailSource, base: string): PpaDetail {
  const versions = (source.versions ?? []).map((version) => pick(VERSION_KEYS, version));
  return {
    ...presentListItem(source, base),
    active: source.active,
    offtaker: pick(OFFTAKER_KEYS, source.offtaker),
    contract: pick(CONTRACT_KEYS, source.contract),
    fiscal: pick(FISCAL_KEYS, source.fiscal),
    procurement: pick(PROCUREMENT_KEYS, source.procurement),
    versions: versions.sort(newestFirst),
    documents: (source.documents ?? []).map((document) => pick(DOCUMENT_KEYS, document)),
  };
}

/** Exactly these keys, each null when the source lacks it (and nothing else the source may carry). */
function pick<K extends string, T extends Partial<Record<K, unknown>>>(
  keys: readonly K[],
  value: T | null | undefined,
): { [P in K]: NonNullable<T[P]> | null } {
  const shaped = {} as Record<K, unknown>;
  for (const key of keys) shaped[key] = value?.[key] ?? null;
  return shaped as { [P in K]: NonNullable<T[P]> | null };
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
