// The source record (docs/record.md): what a file or the database gives the indexer. mappings/record.schema.json
// validates it; these types describe what passes that schema.

export interface Offtaker {
  name: string | null;
  type: string | null;
}

export interface Contract {
  signed_date: string | null;
  term_years: number | null;
  cod_date: string | null;
  currency: string | null;
  energy_rate_per_kwh: number | null;
  capacity_rate_per_kw_month: number | null;
}

export interface Fiscal {
  annual_payment_obligation_usd: number | null;
  guaranteed_amount_usd: number | null;
  termination_payment_usd: number | null;
}

export interface Procurement {
  method: string | null;
  method_details: string | null;
  number_of_bidders: number | null;
  tender_start: string | null;
  tender_end: string | null;
  award_date: string | null;
  procuring_entity: string | null;
}

export interface Version {
  version: number;
  date: string | null;
  summary: string | null;
}

/** A file attached to a PPA (the record's and the API's `documents`; "document" alone means an indexed one). */
export interface PpaAttachment {
  title: string;
  document_type: string | null;
  url: string | null;
  published_on: string | null;
  format: string | null;
  language: string | null;
}

export interface PpaRecord {
  slug: string;
  reference_code: string;
  project_name: string;
  developer: string;
  location: string;
  country_code?: string | null;
  technology: string;
  tariff: string;
  capacity_mw: number;
  financial_close_year?: number | null;
  risk_features?: string[];
  published: boolean;
  active: boolean;
  published_at?: string | null;
  updated_at: string;
  // Nested objects may be missing or null in a source; every key inside them may be missing or null.
  offtaker?: Partial<Offtaker> | null;
  contract?: Partial<Contract> | null;
  fiscal?: Partial<Fiscal> | null;
  procurement?: Partial<Procurement> | null;
  versions?: Version[];
  documents?: PpaAttachment[];
}
