// The one written form of a timestamp, shared by the indexer (what it stores) and the API (what it shows):
// ISO 8601 in UTC with `Z`, milliseconds only when they are not zero ("2024-03-01T12:00:00Z").

// Already in that form: the indexer writes it, so the API finds it on every hit and can skip the Date round trip
// (which was most of the time spent presenting a page of results).
const CANONICAL_UTC =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the year, month (1–12) and day name a real calendar day (leap years included). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!(month >= 1 && month <= 12 && day >= 1)) return false;
  if (day <= DAYS_IN_MONTH[month - 1]!) return true;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && day === 29 && leap;
}

/** The canonical UTC form of an ISO 8601 timestamp, or null when it is not one. */
export function canonicalUtc(value: string): string | null {
  if (CANONICAL_UTC.test(value) && (value.length === 20 || !value.endsWith('.000Z'))) {
    const [year, month, day] = [value.slice(0, 4), value.slice(5, 7), value.slice(8, 10)].map(Number);
    return isCalendarDay(year!, month!, day!) ? value : null;
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace('.000Z', 'Z');
}
