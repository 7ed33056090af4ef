// What the API reads back from the index: the indexer's document (one contract, defined once over there).
import type { estypes } from '@elastic/elasticsearch';
import type { IndexDocument } from '../../indexer/document.js';

export type PpaSource = IndexDocument;

/** The _source fields a list item needs. */
export const LIST_SOURCE_FIELDS = [
  'slug',
  'project_name',
  'developer',
  'reference_code',
  'location',
  'country_code',
  'technology',
  'tariff',
  'capacity_mw',
  'financial_close_year',
  'risk_features',
  'published_at',
  'updated_at',
] as const satisfies readonly (keyof IndexDocument)[];

export type ListSource = Pick<IndexDocument, (typeof LIST_SOURCE_FIELDS)[number]>;

/** The _source fields the detail needs: the list's plus the detail-only objects. */
export const DETAIL_SOURCE_FIELDS = [
  ...LIST_SOURCE_FIELDS,
  'active',
  'offtaker',
  'contract',
  'fiscal',
  'procurement',
  'versions',
  'documents',
] as const satisfies readonly (keyof IndexDocument)[];

export type DetailSource = Pick<IndexDocument, (typeof DETAIL_SOURCE_FIELDS)[number]>;

/** A search request without its index: the gateway pins every search to the alias. */
export type SearchRequestBody = Omit<estypes.SearchRequest, 'index'>;
