// Names of the indices behind an alias: `<alias>-yyyymmdd't'hhmmssSSS'z'`, e.g. ppas-20261122t041530123z.
// The API reads the build time back from this name (statistics meta.generated_at), so the format is a contract.

const TIMESTAMP_PATTERN = /^(\d{4})(\d{2})(\d{2})t(\d{2})(\d{2})(\d{2})(\d{3})z$/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

export function indexNameFor(alias: string, builtAt: Date): string {
  const stamp =
    `${builtAt.getUTCFullYear()}${pad(builtAt.getUTCMonth() + 1)}${pad(builtAt.getUTCDate())}` +
    `t${pad(builtAt.getUTCHours())}${pad(builtAt.getUTCMinutes())}${pad(builtAt.getUTCSeconds())}` +
    `${pad(builtAt.getUTCMilliseconds(), 3)}z`;
  return `${alias}-${stamp}`;
}

/** When the index was built, from its name; null when the name is not `<something>-<timestamp>`. */
export function parseIndexBuiltAt(indexName: string): Date | null {
  const stamp = indexName.slice(indexName.lastIndexOf('-') + 1);
  const match = TIMESTAMP_PATTERN.exec(stamp);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds, millis] = match.slice(1).map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hours, minutes, seconds, millis));
  // Reject impossible dates (20261340...) rather than letting Date roll them over.
  return indexNameFor('x', date) === `x-${stamp}` ? date : null;
}

/** True for the data indices of this alias (the only indices retention may delete). */
export function isDataIndexOf(alias: string, indexName: string): boolean {
  return (
    indexName.startsWith(`${alias}-`) &&
    TIMESTAMP_PATTERN.test(indexName.slice(alias.length + 1)) &&
    parseIndexBuiltAt(indexName) !== null
  );
}
