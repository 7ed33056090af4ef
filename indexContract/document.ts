// The indexed document: what the indexer writes for one published record and what the API reads back. Its
// fields are exactly those of mappings/ppas.json; the nested objects carry exactly the keys listed here.
import type { FlagCode } from './flags.js';
import type { Contract, Fiscal, Offtaker, PpaAttachment, Procurement, Version } from './record.js';

export interface IndexDocument {
  slug: string;
  /**
   * A hash of what the API serves of the PPA (the detail's fields): two generations, or a document and the one
   * that replaces it, are the same PPA to a client exactly when their hashes are equal (the change log's diff).
   */
  content_hash: string;
  reference_code: string;
  project_name: string;
  developer: string;
  location: string;
  name_sort: string;
  name_folded: string;
  /** The name's canonical words (indexContract/text/canonical.ts): "Kafue PV II" → "kafue photovoltaic 2". */
  name_canonical: string;
  /** The canonical words without spaces: "kafuephotovoltaic2" (whole-name match whatever the spacing). */
  name_compact: string;
  /** Each pair of adjacent canonical words as one word: "kafuephotovoltaic", "photovoltaic2". */
  name_joined: string[];
  /** Each name word of 5+ letters with one letter (not the first) dropped: "solar" → "slar", "soar", "solr", "sola". */
  name_dropped_letter: string[];
  /** Each name word of 5+ letters without its first letter: "solar" → "olar" (a first letter dropped). */
  name_without_first_letter: string[];
  /** Every prefix (1–20 letters) of every folded name word: suggestions match the word being typed with a typo. */
  name_prefixes: string[];
  developer_folded: string;
  location_folded: string;
  reference_code_folded: string;
  country_code: string | null;
  /** The country's English names, folded words ("cote d ivoire", "ivory coast"): a word of `q` may match them. */
  country_names: string[];
  technology: string;
  /** The technology's words and synonyms, folded ("solar", "pv", "photovoltaic"…): a word of `q` may match them. */
  technology_words: string[];
  /** The words `q` is looked for among, each once (indexContract/text/vocabulary.ts): what "did you mean" offers. */
  vocabulary: string[];
  tariff: string;
  risk_features: string[];
  /** The red flags raised (indexContract/flags.ts), in the table's order; `[]` when none. */
  flags: FlagCode[];
  /** The red flags that could not be decided on the PPA (the statistics' `computable` counts the rest). */
  flags_undecidable: FlagCode[];
  /** How many flags are raised (sort=flags_desc). */
  flag_count: number;
  /** Every facet value as "<facet>:<value>" (indexContract/facetValues.ts): several facets counted in one pass. */
  facet_values: string[];
  /** The ids of its parties, each once (indexContract/parties.ts): the `party` filter. */
  party_ids: string[];
  /** The roll-ups' counterparties and codes as spelled, one per group key (indexContract/groupFields.ts). */
  group_developer: string[];
  group_offtaker: string[];
  group_offtaker_type: string[];
  group_procuring_entity: string[];
  group_procurement_method: string[];
  group_currency: string[];
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
  /** The PPA's attached files. */
  documents: PpaAttachment[];
}

// The keys of each nested object: the indexer writes every one (null when the source lacks it) and the API
// shows every one, so a client always sees the whole shape.
export const OFFTAKER_KEYS = ['name', 'type'] as const satisfies readonly (keyof Offtaker)[];
export const CONTRACT_KEYS = [
  'signed_date',
  'term_years',
  'cod_date',
  'currency',
  'energy_rate_per_kwh',
  'capacity_rate_per_kw_month',
] as const satisfies readonly (keyof Contract)[];
export const FISCAL_KEYS = [
  'annual_payment_obligation_usd',
  'guaranteed_amount_usd',
  'termination_payment_usd',
] as const satisfies readonly (keyof Fiscal)[];
export const PROCUREMENT_KEYS = [
  'method',
  'method_details',
  'number_of_bidders',
  'tender_start',
  'tender_end',
  'award_date',
  'procuring_entity',
] as const satisfies readonly (keyof Procurement)[];
export const VERSION_KEYS = ['version', 'date', 'summary'] as const satisfies readonly (keyof Version)[];
export const ATTACHMENT_KEYS = [
  'title',
  'document_type',
  'url',
  'published_on',
  'format',
  'language',
] as const satisfies readonly (keyof PpaAttachment)[];

/** Exactly these keys, each null when the value lacks it (and nothing else the value may carry). */
export function withKeys<K extends string, T extends Partial<Record<K, unknown>>>(
  keys: readonly K[],
  value: T | null | undefined,
): { [P in K]: NonNullable<T[P]> | null } {
  const shaped = {} as Record<K, unknown>;
  for (const key of keys) shaped[key] = value?.[key] ?? null;
  return shaped as { [P in K]: NonNullable<T[P]> | null };
}
