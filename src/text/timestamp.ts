// The one written form of a timestamp, shared by the indexer (what it stores) and the API (what it shows):
// ISO 8601 in UTC with `Z`, milliseconds only when they are not zero ("2024-03-01T12:00:00Z").

// Already in that form: the indexer writes it, so the API finds it on every hit and can skip the Date round trip
// (which was most of the time spent presenting a page of results).
const CANONICAL_UTC =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

function isRealDay(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The canonical UTC form of an ISO 8601 timestamp, or null when it is not one. */
export function canonicalUtc(value: string): string | null {
  if (CANONICAL_UTC.test(value) && (value.length === 20 || !value.endsWith('.000Z'))) {
    if (Number(value.slice(8, 10)) <= 28 || isRealDay(value)) return value;
    return null;
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace('.000Z', 'Z');
}
