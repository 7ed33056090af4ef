// What is wrong with an NDJSON line that cannot become a record, said as a problem of the field it is in whenever
// that can be found (jsonPathScanner.ts): "project_name is not valid UTF-8 (byte 0xff at byte 31 of the
// line)" rather than "(line) is not valid UTF-8". Only lines that fail come here, so reading good lines costs nothing more.
import { fieldName, JsonPathScanner, type PathSegment, type ScannedValue } from './jsonPathScanner.js';
import type { FieldProblem } from './recordSchema.js';

/** A longer NDJSON line is an invalid record: a line of unbounded length must not grow in memory. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The problems of a line that is no record, and its slug when the line still shows it. */
export interface LineDiagnosis {
  slug: string | null;
  problems: FieldProblem[];
}

const LIMIT = `a line may hold at most ${MAX_LINE_BYTES} bytes (1 MiB)`;

/**
 * A line past MAX_LINE_BYTES, fed to it as it is read (its bytes are not kept): names the deepest field that holds
 * at least half of the line (so a long title inside documents is documents.0.title, not documents), else the
 * largest top-level field.
 */
export class OverlongLine {
  /** Values holding at least half of the bytes read so far: nested in one another, so a handful at most. */
  private halves: ScannedValue[] = [];
  private largestField: ScannedValue | null = null;
  private readonly scanner = new JsonPathScanner((value) => this.onValue(value));

  write(bytes: Uint8Array): void {
    this.scanner.write(bytes);
  }

  finish(): LineDiagnosis {
    const total = this.scanner.offset;
    const limit = `in a line of ${total} bytes; ${LIMIT}`;
    // Values that each hold half of the line overlap, so they nest: the deepest is the smallest.
    const half = this.halves
      .filter((value) => sizeOf(value) * 2 >= total)
      .reduce<ScannedValue | null>(
        (deepest, value) => (deepest && sizeOf(deepest) <= sizeOf(value) ? deepest : value),
        null,
      );
    const openStart = this.scanner.openStart();
    const open = this.scanner.path();
    let problem: FieldProblem;
    if (half) problem = { field: fieldName(half.path), message: `${describeValue(half)}, ${limit}` };
    else if (openStart !== null && open.length > 0 && (total - openStart) * 2 >= total) {
      // A value the line ends inside (a string never closed, say).
      problem = {
        field: fieldName(open),
        message: `is still open after ${total - openStart} bytes, ${limit}`,
      };
    } else if (this.largestField) {
      problem = {
        field: fieldName(this.largestField.path),
        message: `is the largest field (${sizeOf(this.largestField)} bytes), ${limit}`,
      };
    } else
      problem = {
        field: '(line)',
        message: `is longer than ${MAX_LINE_BYTES} bytes (1 MiB): ${total} bytes`,
      };
    return { slug: this.scanner.slug, problems: [problem] };
  }

  private onValue(value: ScannedValue): void {
    if (value.path.length === 0) return; // the record itself
    const size = sizeOf(value);
    if (value.path.length === 1 && size > (this.largestField ? sizeOf(this.largestField) : 0))
      this.largestField = value;
    // Only a value holding half of what has been read so far can hold half of the whole line.
    if (size * 2 < value.end) return;
    this.halves = this.halves.filter((kept) => sizeOf(kept) * 2 >= value.end);
    this.halves.push(value);
  }
}

function sizeOf(value: ScannedValue): number {
  return value.end - value.start;
}

function describeValue(value: ScannedValue): string {
  const size = sizeOf(value);
  if (value.kind === 'array') return `is ${value.items ?? 0} items, ${size} bytes`;
  if (value.kind === 'string') return `is a string of ${size} bytes`;
  return `is ${size} bytes`;
}

/** The offset of the first byte that does not begin a well-formed UTF-8 character, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const byte = bytes[i]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : 4;
    if (length === 4 && (byte < 0xf0 || byte > 0xf4)) return i;
    if (length > 1 && !wellFormedTail(bytes, i, length)) return i;
    i += length;
  }
  return -1;
}

/** The continuation bytes of a multi-byte character, with the Unicode standard's limits on the second byte. */
function wellFormedTail(bytes: Uint8Array, at: number, length: number): boolean {
  const lead = bytes[at]!;
  for (let k = 1; k < length; k++) {
    const byte = bytes[at + k];
    if (byte === undefined || (byte & 0xc0) !== 0x80) return false;
  }
  const second = bytes[at + 1]!;
  if (lead === 0xe0) return second >= 0xa0; // overlong
  if (lead === 0xed) return second <= 0x9f; // surrogates
  if (lead === 0xf0) return second >= 0x90; // overlong
  if (lead === 0xf4) return second <= 0x8f; // past U+10FFFF
  return true;
}

/** A line (at most MAX_LINE_BYTES) that is not UTF-8: the field the first bad byte sits in. */
export function diagnoseInvalidUtf8(bytes: Uint8Array): LineDiagnosis {
  const offset = Math.max(firstInvalidUtf8(bytes), 0);
  const scanner = new JsonPathScanner();
  scanner.write(bytes.subarray(0, offset));
  const path = scanner.path();
  scanner.write(bytes.subarray(offset)); // on to the slug, wherever it is
  const where = `byte 0x${bytes[offset]?.toString(16).padStart(2, '0') ?? '??'} at byte ${offset} of the line`;
  const problem: FieldProblem =
    path.length > 0
      ? { field: fieldName(path), message: `is not valid UTF-8 (${where})` }
      : { field: '(line)', message: `is not valid UTF-8 (${where}, outside any field)` };
  return { slug: scanner.slug, problems: [problem] };
}

/**
 * A line that is text but not JSON: the field where the parser stopped (V8 names the position), or, when the
 * line breaks before any field, that it is not JSON at all.
 */
export function diagnoseInvalidJson(text: string, error: unknown): LineDiagnosis {
  const detail = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(detail);
  const scanner = new JsonPathScanner();
  scanner.write(Buffer.from(position ? text.slice(0, Number(position[1])) : text));
  const path: PathSegment[] = scanner.path();
  const after = scanner.lastField;
  const problem: FieldProblem =
    path.length > 0
      ? { field: fieldName(path), message: `is where the line stops being valid JSON: ${detail}` }
      : after
        ? { field: '(line)', message: `is not valid JSON after the field ${fieldName(after)}: ${detail}` }
        : { field: '(line)', message: `is not JSON, so no field of it can be checked: ${detail}` };
  return { slug: scanner.slug, problems: [problem] };
}
