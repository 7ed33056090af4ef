// Pass 1 of a reindex (and all of `validate`): read every record, check it against the schema and for
// duplicate slugs / reference codes, and count what would be indexed. Keeps only the keys it must compare.
import { checkRecord, type FieldProblem } from './recordSchema.js';
import { quoted, terminalSafe } from '../terminalText.js';
import { readSource, type ReadSourceOptions, type SourceFormat, type SourceItem } from './source.js';

/** A record that cannot be indexed; `line` is the NDJSON line (from 1) or the JSON array index (from 0). */
export interface InvalidRecord {
  line: number;
  slug: string | null;
  problems: FieldProblem[];
}

export interface SourceReport {
  format: SourceFormat;
  read: number;
  valid: number;
  invalid: number;
  /** The first MAX_LISTED invalid records, for messages; `invalid` counts them all. */
  invalidRecords: InvalidRecord[];
  /** Positions of every invalid record, so pass 2 skips exactly these with --skip-invalid. */
  invalidLines: Set<number>;
  /** Valid and published: what the new index must hold. */
  published: number;
  unpublished: number;
  inactive: number;
}

const MAX_LISTED = 1000;

function slugOf(value: unknown): string | null {
  const slug = (value as { slug?: unknown } | null)?.slug;
  return typeof slug === 'string' ? slug : null;
}

export function validateSource(
  path: string,
  format: SourceFormat,
  options: ReadSourceOptions & { onRecord?: (read: number) => void } = {},
): Promise<SourceReport> {
  return validateItems(readSource(path, format, options), format, options);
}

/** Validates the items of any source (a file's lines, a relation's rows). */
export async function validateItems(
  items: AsyncIterable<SourceItem>,
  format: SourceFormat,
  options: { onRecord?: (read: number) => void } = {},
): Promise<SourceReport> {
  const report: SourceReport = {
    format,
    read: 0,
    valid: 0,
    invalid: 0,
    invalidRecords: [],
    invalidLines: new Set(),
    published: 0,
    unpublished: 0,
    inactive: 0,
  };
  const firstLineOfSlug = new Map<string, number>();
  const firstLineOfReference = new Map<string, number>();
  const unit = positionUnit(format);

  for await (const item of items) {
    report.read++;
    options.onRecord?.(report.read);
    let problems: FieldProblem[];
    let slug: string | null = null;
    if ('unparsed' in item) {
      problems = item.problems;
      slug = item.slug;
    } else {
      slug = slugOf(item.value);
      problems = [...checkRecord(item.value), ...(item.problems ?? [])];
      if (problems.length === 0) {
        const record = item.value as { slug: string; reference_code: string };
        const slugLine = firstLineOfSlug.get(record.slug);
        const referenceLine = firstLineOfReference.get(record.reference_code);
        if (slugLine !== undefined)
          problems.push({ field: 'slug', message: `duplicates ${unit} ${slugLine}` });
        if (referenceLine !== undefined) {
          problems.push({ field: 'reference_code', message: `duplicates ${unit} ${referenceLine}` });
        }
        // The first occurrence stays valid; later ones are the duplicates.
        if (slugLine === undefined) firstLineOfSlug.set(record.slug, item.line);
        if (referenceLine === undefined) firstLineOfReference.set(record.reference_code, item.line);
      }
    }
    if (problems.length > 0) {
      report.invalid++;
      report.invalidLines.add(item.line);
      if (report.invalidRecords.length < MAX_LISTED)
        report.invalidRecords.push({ line: item.line, slug, problems });
      continue;
    }
    report.valid++;
    const record = (item as { value: { published: boolean; active: boolean } }).value;
    if (!record.published) report.unpublished++;
    else {
      report.published++;
      if (!record.active) report.inactive++;
    }
  }
  return report;
}

/** How a record's position is named: NDJSON lines, JSON array elements, PostgreSQL rows (in read order, from 1). */
function positionUnit(format: SourceFormat): string {
  return format === 'ndjson' ? 'line' : format === 'json-array' ? 'element' : 'row';
}

/**
 * 'line 12 (slug "kahone-solar"): capacity_mw must be >= 0; slug duplicates line 3'. Whatever came from the source
 * is made terminal-safe (indexer/terminalText.ts).
 */
export function describeInvalidRecord(record: InvalidRecord, format: SourceFormat): string {
  const where = `${positionUnit(format)} ${record.line}`;
  const slug = record.slug === null ? '' : ` (slug ${quoted(record.slug)})`;
  const problems = record.problems.map((problem) => `${problem.field} ${problem.message}`).join('; ');
  return `${where}${slug}: ${terminalSafe(problems)}`;
}
