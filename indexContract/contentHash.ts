// The content hash of an indexed document (IndexDocument.content_hash): what the change log compares to tell
// whether a PPA changed for a client. Its definition is part of the index contract and versioned with it: a
// generation records the version its hashes were computed by in its _meta (CONTENT_HASH_VERSION_FIELD), and a
// comparison trusts the stored hashes only of a generation of the current version; any other generation's (an
// older release's, with no hash or one of another definition) are derived again from the served fields of
// _source (servedContentHash).
import { hash } from 'node:crypto';
import {
  ATTACHMENT_KEYS,
  CONTRACT_KEYS,
  FISCAL_KEYS,
  OFFTAKER_KEYS,
  PROCUREMENT_KEYS,
  VERSION_KEYS,
  withKeys,
} from './document.js';
import { DETAIL_SOURCE_FIELDS, type DetailSource } from './sourceFields.js';
import { canonicalUtc } from './text/timestamp.js';

/**
 * The definition's version. Move it on whenever contentHash would give another hash for the same served values
 * (another algorithm, encoding, field list or order): the generations built before are then hashed again from
 * their _source when compared, instead of every PPA looking changed.
 *
 * 1: SHA-1, base64url, of the JSON of the DETAIL_SOURCE_FIELDS values as one array in that order.
 * 2: the same over HASHED_FIELDS: DETAIL_SOURCE_FIELDS now with `flags` (a PPA whose flags change has changed).
 */
export const CONTENT_HASH_VERSION = 2;

/**
 * The fields hashed: the stored values the detail serves. The flags' evidence is not stored (the API derives it from
 * values hashed already and from the peer fences): a reindex that moves a fence without changing a PPA's flags does
 * not make that PPA a change (the contract: a PPA whose flags change appears in `changes`).
 */
export const HASHED_FIELDS = DETAIL_SOURCE_FIELDS;

/** The _meta field of a generation that holds the version its content hashes were computed by (absent: none). */
export const CONTENT_HASH_VERSION_FIELD = 'content_hash_version';

/**
 * The content hash of a document as buildDocument writes it: SHA-1 of the JSON of the values the API serves
 * (HASHED_FIELDS, as one array in that order), whose nested objects buildDocument writes in one key order
 * whatever the source's. Derived search fields are left out, so a release that only changes how names are
 * expanded does not make every PPA look changed. An array and the one-shot `hash` cost less a document than a
 * keyed object and a Hash object.
 */
export function contentHash(document: DetailSource): string {
  const served = new Array<unknown>(HASHED_FIELDS.length);
  for (let i = 0; i < HASHED_FIELDS.length; i++) served[i] = document[HASHED_FIELDS[i]!];
  return hash('sha1', JSON.stringify(served), 'base64url');
}

/**
 * The content hash of a document read back from an index, whoever wrote it: its served values put in the shape
 * buildDocument writes (every nested key, in the contract's order, null when absent; missing optional values null
 * or empty; timestamps in their canonical form), as the API presents them, then hashed by contentHash. For a
 * document this release wrote it is its stored hash; for an older release's, the hash it would have now if its
 * served values are the same.
 */
export function servedContentHash(source: Partial<DetailSource>): string {
  return contentHash(servedShape(source));
}

/** The served values of `source` in the shape buildDocument writes them (see servedContentHash). */
export function servedShape(source: Partial<DetailSource>): DetailSource {
  return {
    slug: source.slug!,
    project_name: source.project_name!,
    developer: source.developer!,
    reference_code: source.reference_code!,
    location: source.location!,
    country_code: source.country_code ?? null,
    technology: source.technology!,
    tariff: source.tariff!,
    capacity_mw: source.capacity_mw!,
    financial_close_year: source.financial_close_year ?? null,
    risk_features: source.risk_features ?? [],
    flags: source.flags ?? [],
    published_at: timestamp(source.published_at),
    updated_at: timestamp(source.updated_at)!,
    active: source.active!,
    offtaker: withKeys(OFFTAKER_KEYS, source.offtaker),
    contract: withKeys(CONTRACT_KEYS, source.contract),
    fiscal: withKeys(FISCAL_KEYS, source.fiscal),
    procurement: withKeys(PROCUREMENT_KEYS, source.procurement),
    versions: (source.versions ?? []).map((version) => withKeys(VERSION_KEYS, version)),
    documents: (source.documents ?? []).map((attachment) => withKeys(ATTACHMENT_KEYS, attachment)),
  } as DetailSource;
}

/** Canonical when it parses (as the API shows it), as it is otherwise; null when absent. */
function timestamp(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return canonicalUtc(value) ?? value;
}

/**
 * Whether the content hashes stored in a generation can be compared as they are: its _meta names the current
 * version. A generation built before hashes were versioned has no version, and is hashed again too.
 */
export function storedHashesCurrent(meta: Readonly<Record<string, unknown>>): boolean {
  return meta[CONTENT_HASH_VERSION_FIELD] === CONTENT_HASH_VERSION;
}
