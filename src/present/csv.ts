// CSV as every CSV answer writes it (the export, the roll-ups): RFC 4180 (CRLF line ends; a field with a comma,
// quote or line break quoted, quotes doubled), UTF-8, an empty cell for null, lists joined by ";", and text that a
// spreadsheet would run as a formula prefixed with '.
import { stringify } from 'csv-stringify/sync';

/** A spreadsheet would run a cell that begins with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: empty for null, lists joined by ";", text that could start a formula prefixed with '. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return csvCell(value.join(';'));
  const text = String(value);
  return typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
}

/** Rows of values as CSV text, each value a cell (csvCell). */
export function csvRows(rows: readonly (readonly unknown[])[]): string {
  return stringify(
    rows.map((row) => row.map(csvCell)),
    // A bare line feed or carriage return in a value is a line break to spreadsheets too: quoted as CRLF is.
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
