// What every reconciliation service (PPAs, parties) answers the same way, from its description: the manifest, the
// suggest services of properties and types, the property proposal, a result batch and a data extension's shape.
// Each body is one the Reconciliation Service API 0.2's schemas accept (the tests check them against those).
import { MAX_BATCH_QUERIES, type ReconcileQuery, type SuggestParams } from '../params/reconcile.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { Candidate, ReconcileType } from './reconcileCandidates.js';

/** A property a query may give, or a column a data extension may ask for. */
export interface ServiceProperty {
  id: string;
  name: string;
  description: string;
}

/** The paths of one service, under the API's prefix (src/http/apiPath.ts). */
export interface ServicePaths {
  root: string;
  suggestEntity: string;
  suggestProperty: string;
  suggestType: string;
  preview: string;
  properties: string;
}

export interface ServiceDescription {
  name: string;
  paths: ServicePaths;
  type: ReconcileType;
  /** Where an entity's id leads, from the base URL: `{{id}}` stands for the id. */
  viewPath: string;
  /** The URI the ids are in, from the base URL. */
  identifierPath: string;
  queryProperties: readonly ServiceProperty[];
  extendProperties: readonly ServiceProperty[];
}

/** The preview's frame in OpenRefine, in pixels. */
export const PREVIEW_WIDTH = 420;
export const PREVIEW_HEIGHT = 150;

/** GET without `queries`: what the service is and offers. */
export function presentManifest(service: ServiceDescription, base: string) {
  const { paths } = service;
  const at = (path: string) => ({ service_url: base, service_path: path });
  return {
    versions: ['0.2'],
    name: service.name,
    identifierSpace: `${base}${service.identifierPath}`,
    schemaSpace: `${base}${paths.properties}`,
    documentation: `${base}/api/v1/docs`,
    batchSize: MAX_BATCH_QUERIES,
    defaultTypes: [service.type],
    view: { url: `${base}${service.viewPath}` },
    preview: { url: `${base}${paths.preview}?id={{id}}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT },
    suggest: {
      entity: at(paths.suggestEntity),
      property: at(paths.suggestProperty),
      type: at(paths.suggestType),
    },
    extend: { propose_properties: at(paths.properties), property_settings: [] },
  };
}

/** Candidates under each query's key, in the batch's order. */
export function presentResultBatch(
  queries: readonly ReconcileQuery[],
  candidates: readonly Candidate[][],
): Record<string, { result: Candidate[] }> {
  return Object.fromEntries(queries.map((query, i) => [query.key, { result: candidates[i] ?? [] }]));
}

/** Whether a folded prefix starts one of the folded words of a text, or the whole text. */
function startsWith(text: string, prefix: string): boolean {
  const folded = foldText(text);
  const typed = foldText(prefix.trim());
  return folded.startsWith(typed) || folded.split(/[\s_]+/u).some((word) => word.startsWith(typed));
}

/** The properties whose id or name starts with the prefix (a page of them from the cursor). */
export function presentSuggestedProperties(
  service: ServiceDescription,
  { prefix, cursor, limit }: SuggestParams,
) {
  const result = service.queryProperties
    .filter((property) => startsWith(property.id, prefix) || startsWith(property.name, prefix))
    .slice(cursor, cursor + limit)
    .map(({ id, name, description }) => ({ id, name, description }));
  return { result };
}

/** The service's one type, when the prefix starts it. */
export function presentSuggestedTypes(service: ServiceDescription, { prefix, cursor }: SuggestParams) {
  const { type } = service;
  const fits = cursor === 0 && (startsWith(type.id, prefix) || startsWith(type.name, prefix));
  return { result: fits ? [{ id: type.id, name: type.name }] : [] };
}

/** The columns a data extension may ask for (none for another type than the service's). */
export function presentProposedProperties(
  service: ServiceDescription,
  query: { type?: string; limit: number },
) {
  const type = query.type ?? service.type.id;
  const properties =
    type === service.type.id
      ? service.extendProperties
          .slice(0, query.limit)
          .map(({ id, name, description }) => ({ id, name, description }))
      : [];
  return { type, limit: query.limit, properties };
}

/** A data extension's values: a string, a number, an integer or an entity of another service, each as 0.2 writes it. */
export type ExtendValue =
  { str: string } | { float: number } | { int: number } | { id: string; name: string };

/** The meta and rows of a data extension: every id asked, every property asked (no value: an empty list). */
export function presentExtension(
  service: ServiceDescription,
  extend: { ids: readonly string[]; properties: readonly string[] },
  valuesOf: (id: string, property: string) => ExtendValue[],
) {
  const meta = extend.properties.map((id) => {
    const property = service.extendProperties.find((candidate) => candidate.id === id);
    return { id, name: property?.name ?? id };
  });
  const rows = Object.fromEntries(
    extend.ids.map((id) => [
      id,
      Object.fromEntries(extend.properties.map((property) => [property, valuesOf(id, property)])),
    ]),
  );
  return { meta, rows };
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe inside HTML. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (c) => HTML_ESCAPES[c] ?? c);

/**
 * A small HTML card of an entity for OpenRefine's preview frame: its name linked to its page, and a few lines of
 * facts (each a label and a value, escaped here).
 */
export function previewCard(title: string, url: string, lines: readonly [string, string][]): string {
  const rows = lines
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font:13px/1.4 system-ui,sans-serif;margin:8px}h1{font-size:15px;margin:0 0 6px}',
    'th{text-align:left;padding-right:8px;color:#555;font-weight:normal}</style></head><body>',
    `<h1><a href="${escapeHtml(url)}" target="_blank" rel="noopener">${escapeHtml(title)}</a></h1>`,
    `<table>${rows}</table></body></html>`,
  ].join('');
}
