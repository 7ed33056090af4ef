// Pass 1 of a reindex (and all of `validate`): read every record, check it against the schema and for
// duplicate slugs / reference codes, and count what would be indexed. Keeps only the keys it must compare.
import { PeerRates, peerRate } from '../../indexContract/flags.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';
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
  /** The rates of the valid records that are red-flag peers (published, active, currency and rate known). */
  peerRates: PeerRates;
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

/**
 * What pass 1 keeps of one item once its own checks are done: the problems of a record that cannot be indexed,
 * or the keys the duplicate checks compare and what the counts need. Plain data, so a worker thread reading one
 * byte range of a file (parallelValidation.ts) can hand it over.
 */
export type CheckedItem =
  | { line: number; slug: string | null; problems: FieldProblem[] }
  | {
      line: number;
      slug: string;
      reference: string;
      published: boolean;
      active: boolean;
      /** Its rate among the red flags' peers (indexContract/flags.ts), when it is one. */
      peer: ReturnType<typeof peerRate>;
    };

/** The checks one item needs alone: its parse, the record schema, what its source found. */
export function checkItem(item: SourceItem): CheckedItem {
  if ('unparsed' in item) return { line: item.line, slug: item.slug, problems: item.problems };
  const problems = [...checkRecord(item.value), ...(item.problems ?? [])];
  if (problems.length > 0) return { line: item.line, slug: slugOf(item.value), problems };
  const record = item.value as PpaRecord;
  return {
    line: item.line,
    slug: record.slug,
    reference: record.reference_code,
    published: record.published,
    active: record.active,
    peer: peerRate(record),
  };
}

/**
 * The report of a whole source, from its checked items in source order: the checks across records (duplicate
 * slugs and reference codes; the first occurrence stays valid, later ones are the duplicates) and the counts.
 */
export class SourceReportBuilder {
  readonly report: SourceReport;
  private readonly firstLineOfSlug = new Map<string, number>();
  private readonly firstLineOfReference = new Map<string, number>();
  private readonly unit: string;

  constructor(format: SourceFormat) {
    this.report = {
      format,
      read: 0,
      valid: 0,
      invalid: 0,
      invalidRecords: [],
      invalidLines: new Set(),
      published: 0,
      unpublished: 0,
      inactive: 0,
      peerRates: new PeerRates(),
    };
    this.unit = positionUnit(format);
  }

  /** Adds the next item; `lineOffset` turns a byte range's own line numbers into the file's. */
  add(checked: CheckedItem, lineOffset = 0): void {
    const { report } = this;
    const line = checked.line + lineOffset;
    report.read++;
    let problems: FieldProblem[];
    if ('problems' in checked) problems = checked.problems;
    else {
      problems = [];
      const slugLine = this.firstLineOfSlug.get(checked.slug);
      const referenceLine = this.firstLineOfReference.get(checked.reference);
      if (slugLine !== undefined)
        problems.push({ field: 'slug', message: `duplicates ${this.unit} ${slugLine}` });
      if (referenceLine !== undefined) {
        problems.push({ field: 'reference_code', message: `duplicates ${this.unit} ${referenceLine}` });
      }
      if (slugLine === undefined) this.firstLineOfSlug.set(checked.slug, line);
      if (referenceLine === undefined) this.firstLineOfReference.set(checked.reference, line);
    }
    if (problems.length > 0) {
      report.invalid++;
      report.invalidLines.add(line);
      if (report.invalidRecords.length < MAX_LISTED)
        report.invalidRecords.push({ line, slug: checked.slug, problems });
      return;
    }
    report.valid++;
    const { published, active, peer } = checked as Extract<CheckedItem, { published: boolean }>;
    report.peerRates.add(peer);
    if (!published) report.unpublished++;
    else {
      report.published++;
      if (!active) report.inactive++;
    }
  }
}

/** Validates the items of any source (a file's lines, a relation's rows). */
export async function validateItems(
  items: AsyncIterable<SourceItem>,
  format: SourceFormat,
  options: { onRecord?: (read: number) => void } = {},
): Promise<SourceReport> {
  const builder = new SourceReportBuilder(format);
  for await (const item of items) {
    builder.add(checkItem(item));
    options.onRecord?.(builder.report.read);
  }
  return builder.report;
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

/** Invalid records named in the error's message (the report counts them all). */
const MAX_IN_MESSAGE = 20;

/** The source has invalid records and --skip-invalid was not given: nothing was written. */
export class InvalidSourceError extends IndexerError {
  override readonly exitCode = EXIT_CODES.invalidRecords;
  /** The failure in a few words; the message lists the records. */
  readonly summary: string;
  /** The records the message lists. */
  readonly listed: InvalidRecord[];
  constructor(readonly report: SourceReport) {
    const listed = report.invalidRecords.slice(0, MAX_IN_MESSAGE);
    const lines = listed.map((record) => `  ${describeInvalidRecord(record, report.format)}`);
    const more = report.invalid > lines.length ? [`  … and ${report.invalid - lines.length} more`] : [];
    super(
      [`${report.invalid} invalid record(s) of ${report.read}; nothing was indexed:`, ...lines, ...more].join(
        '\n',
      ),
    );
    this.summary = `${report.invalid} invalid record(s) of ${report.read} (listed above)`;
    this.listed = listed;
  }
}
