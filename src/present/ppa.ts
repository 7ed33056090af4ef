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
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';
import { canonicalUtc } from '../../indexContract/text/timestamp.js';
import { apiPath } from '../http/apiPath.js';

export const PPAS_PATH = apiPath('/ppas');

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

export function presentPpa(source: DetailSource, base: string): PpaDetail {
  const versions = (source.versions ?? []).map((version) => withKeys(VERSION_KEYS, version));
  return {
    ...presentListItem(source, base),
    active: source.active,
    offtaker: withKeys(OFFTAKER_KEYS, source.offtaker),
    contract: withKeys(CONTRACT_KEYS, source.contract),
    fiscal: withKeys(FISCAL_KEYS, source.fiscal),
    procurement: withKeys(PROCUREMENT_KEYS, source.procurement),
    versions: versions.sort(newestFirst),
    documents: (source.documents ?? []).map((attachment) => withKeys(ATTACHMENT_KEYS, attachment)),
  };
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
