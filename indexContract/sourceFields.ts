// The _source fields each kind of answer reads back from the index, and the shapes they give.
import type { IndexDocument } from './document.js';

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
  'flags',
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

/** The _source fields the red flags' rules read (indexContract/flags.ts FlagSubject), and the flags themselves. */
export const FLAG_SUBJECT_FIELDS = [
  'technology',
  'risk_features',
  'published_at',
  'contract',
  'fiscal',
  'procurement',
  'documents',
  'flags',
] as const satisfies readonly (keyof IndexDocument)[];
