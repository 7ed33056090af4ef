// The output formats of the answers that are files (the export; a roll-up as CSV), one row each: its name (the
// `format` value), content type, file extension, renderer and row in docs/api.md. The export and the statistics
// dispatch through this table; a format is added here (and its name to the parameter's enum in src/params/, which
// the `satisfies` below keeps in step).
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';
import type { ExportFormat, ExportQuery } from '../params/export.js';
import type { DimensionName, StatisticsFormat } from '../params/groupBy.js';
import { csvRows } from '../present/csv.js';
import type { GroupsPart } from '../present/groups.js';
import { groupsCsv } from '../present/groupsCsv.js';
import { listItem, type ListItem } from '../present/list.js';
import { ppaCompiledRelease } from '../present/ocdsRelease.js';
import { presentPpa } from '../present/ppa.js';

export interface OutputFormat<Input> {
  contentType: string;
  /** The file name's extension. */
  extension: string;
  render(input: Input): string;
  /** Its row in docs/api.md: what the file holds. */
  doc: string;
}

/** Where an export's text is written for: absolute links, and an OCDS export's ocid prefix. */
export interface ExportTarget {
  base: string;
  ocidPrefix: string;
}

/** One batch of an export, to be written in its format. */
export interface ExportBatch {
  query: ExportQuery;
  target: ExportTarget;
  sources: readonly ListSource[];
  /** The first batch: CSV starts with its header row. */
  withHeader: boolean;
}

/** A roll-up's groups, to be written as a file. */
export interface GroupsFile {
  dimensions: readonly DimensionName[];
  part: GroupsPart;
}

/** The columns of an export: the chosen fields, then url. */
export function exportColumns(query: ExportQuery): string[] {
  return [...query.fields, 'url'];
}

export function csvText(items: readonly ListItem[], columns: readonly string[], withHeader: boolean): string {
  const rows = items.map((item) => columns.map((column) => (item as Record<string, unknown>)[column]));
  return csvRows(withHeader ? [[...columns], ...rows] : rows);
}

export function ndjsonText(items: readonly ListItem[]): string {
  return items.map((item) => `${JSON.stringify(item)}\n`).join('');
}

/** OCDS's bulk form: each PPA's compiled release, one a line (the batch read the detail's fields). */
export function ocdsLinesText(sources: readonly DetailSource[], base: string, ocidPrefix: string): string {
  return sources
    .map((source) => `${JSON.stringify(ppaCompiledRelease(presentPpa(source, base), ocidPrefix))}\n`)
    .join('');
}

const itemsOf = ({ sources, target, query }: ExportBatch) =>
  sources.map((source) => listItem(source, target.base, query.fields));

const CSV_TYPE = 'text/csv; charset=utf-8';
const NDJSON_TYPE = 'application/x-ndjson';

/** Every output format, by the answer that gives it and its `format` value. */
export const OUTPUT_FORMATS = {
  export: {
    csv: {
      contentType: `${CSV_TYPE}; header=present`,
      extension: 'csv',
      render: (batch) => csvText(itemsOf(batch), exportColumns(batch.query), batch.withHeader),
      doc: 'RFC 4180 CSV, UTF-8, a header row (the fields, then `url`); lists joined by `;`, empty cell for null',
    },
    ndjson: {
      contentType: NDJSON_TYPE,
      extension: 'ndjson',
      render: (batch) => ndjsonText(itemsOf(batch)),
      doc: 'one list item per line (the fields chosen, then `url`)',
    },
    ocds: {
      contentType: NDJSON_TYPE,
      // OCDS calls its bulk form JSON Lines.
      extension: 'ocds.jsonl',
      render: ({ sources, target }) =>
        ocdsLinesText(sources as DetailSource[], target.base, target.ocidPrefix),
      doc: 'one compiled OCDS release per line, as `GET /api/v1/ppas/ocds` gives them (JSON Lines)',
    },
  } satisfies Record<ExportFormat, OutputFormat<ExportBatch>>,
  statistics: {
    csv: {
      contentType: CSV_TYPE,
      extension: 'csv',
      render: ({ dimensions, part }) => groupsCsv(dimensions, part),
      doc: 'the groups of `group_by`: a header row (the dimension or dimensions, then the figures), one row a group or a pair of a pivot',
    },
  } satisfies Record<Exclude<StatisticsFormat, 'json'>, OutputFormat<GroupsFile>>,
};

/** A file's Content-Disposition: attachment, named `<name>-<UTC date>.<extension>`. */
export function attachment(name: string, format: { extension: string }, at = new Date()): string {
  return `attachment; filename="${name}-${at.toISOString().slice(0, 10)}.${format.extension}"`;
}
