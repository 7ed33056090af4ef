// The string formats of mappings/record.schema.json, checked as strictly as ajv-formats' "full" mode for dates
// (real calendar days) but without its cost: its date, date-time and uri checks were a large share of the
// indexer's CPU (the figure: docs/performance.md, "The indexer").
// Stricter in one place: a leap second (":60") is refused, because neither JavaScript's Date nor Elasticsearch's
// date fields accept one, and a record that passes validation must also load.

import { isCalendarDay } from '../../indexContract/text/timestamp.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ajv-formats' grammar (the offset's colon and minutes optional); the schema's timestamp pattern narrows it to RFC 3339.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)$/;
// Scheme, then no whitespace (ajv-formats' fast uri); the schema's own pattern also requires http(s)://.
const URI = /^[a-z][a-z0-9+\-.]*:[^\s]*$/i;

export function isDate(value: string): boolean {
  const parts = DATE.exec(value);
  return parts !== null && isCalendarDay(Number(parts[1]), Number(parts[2]), Number(parts[3]));
}

export function isDateTime(value: string): boolean {
  const parts = DATE_TIME.exec(value);
  return parts !== null && isCalendarDay(Number(parts[1]), Number(parts[2]), Number(parts[3]));
}

export function isUri(value: string): boolean {
  return URI.test(value);
}

export const RECORD_FORMATS = { date: isDate, 'date-time': isDateTime, uri: isUri } as const;
