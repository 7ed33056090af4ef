// Follows the nesting of JSON text byte by byte without building any value: which field a byte offset sits in,
// and how large each string, object and array is. It names the field of an NDJSON line that cannot be parsed
// whole: one past 1 MiB (its bytes are dropped as they are read), one with bytes that are not UTF-8 (a parser needs
// text), one whose JSON breaks off. JSON's structural characters are ASCII and never part of a multi-byte UTF-8
// character, so stray bytes inside a string do not disturb it. It checks no grammar beyond matching brackets.

/** A field name, or an array index: ["documents", 3, "title"] is documents.3.title. */
export type PathSegment = string | number;

/** A string, object or array value that has ended: where it lay in the text, in bytes. */
export interface ScannedValue {
  path: PathSegment[];
  kind: 'string' | 'object' | 'array';
  start: number;
  end: number;
  /** Arrays: how many items began. */
  items?: number;
}

type Frame =
  | { kind: 'object'; start: number; key: string | null; expectingKey: boolean }
  | { kind: 'array'; start: number; index: number; expectingValue: boolean };

interface OpenString {
  start: number;
  isKey: boolean;
  /** The bytes kept (keys, and the top-level slug), up to KEPT_BYTES; null when they are not wanted. */
  bytes: number[] | null;
  escaped: boolean;
}

/** Longer keys or slugs are cut: they are for messages (and a slug is at most 120 characters when valid). */
const KEPT_BYTES = 512;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const text = new TextDecoder('utf-8'); // not fatal: kept bytes are for messages only

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

export class JsonPathScanner {
  /** Bytes written so far: the offset of the next one. */
  offset = 0;
  /** The top-level `slug` string, once it has been read whole. */
  slug: string | null = null;
  /** The field of the last value that ended (null before any, or when it was the whole text). */
  lastField: PathSegment[] | null = null;
  private readonly stack: Frame[] = [];
  private string: OpenString | null = null;
  private ended = false;
  private broken = false;

  constructor(private readonly onValue?: (value: ScannedValue) => void) {}

  /** The field at the current offset ([] outside every field, or between two fields of the top object). */
  path(): PathSegment[] {
    const path: PathSegment[] = [];
    for (const frame of this.stack) {
      if (frame.kind === 'object') {
        if (frame.key === null) break;
        path.push(frame.key);
      } else {
        if (frame.index < 0) break;
        path.push(frame.index);
      }
    }
    return path;
  }

  write(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      if (this.broken) break;
      const byte = bytes[i]!;
      const at = this.offset + i;
      if (this.string) this.stringByte(byte, at);
      else this.structureByte(byte, at);
    }
    this.offset += bytes.length;
  }

  private stringByte(byte: number, at: number): void {
    const open = this.string!;
    if (open.escaped) open.escaped = false;
    else if (byte === BACKSLASH) open.escaped = true;
    else if (byte === QUOTE) {
      this.string = null;
      this.endString(open, at + 1);
      return;
    }
    if (open.bytes && open.bytes.length < KEPT_BYTES) open.bytes.push(byte);
  }

  private endString(open: OpenString, end: number): void {
    const top = this.stack.at(-1);
    const kept = open.bytes ? unescaped(text.decode(Uint8Array.from(open.bytes))) : null;
    if (open.isKey && top?.kind === 'object') {
      top.key = kept;
      top.expectingKey = false;
      return;
    }
    if (kept !== null) this.slug = kept;
    this.valueEnded({ path: this.path(), kind: 'string', start: open.start, end });
  }

  /** Where the innermost value still open began (a string, object or array), or null when none is. */
  openStart(): number | null {
    return this.string?.start ?? this.stack.at(-1)?.start ?? null;
  }

  private valueEnded(value: ScannedValue): void {
    if (value.path.length > 0) this.lastField = value.path;
    this.onValue?.(value);
    if (this.stack.length === 0) this.ended = true;
  }

  private structureByte(byte: number, at: number): void {
    if (isWhitespace(byte)) return;
    const top = this.stack.at(-1);
    if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
      if (top?.kind !== (byte === 0x7d ? 'object' : 'array')) {
        this.broken = true;
        return;
      }
      this.stack.pop();
      const items = top.kind === 'array' ? top.index + 1 : undefined;
      this.valueEnded({ path: this.path(), kind: top.kind, start: top.start, end: at + 1, items });
      return;
    }
    if (byte === 0x2c /* , */) {
      if (top?.kind === 'object') {
        top.key = null;
        top.expectingKey = true;
      } else if (top?.kind === 'array') top.expectingValue = true;
      return;
    }
    if (byte === 0x3a /* : */) return;
    // Anything else begins (or continues, for a number or a literal) a value, or is a key's opening quote.
    if (this.ended) {
      this.broken = true; // text after the top-level value
      return;
    }
    const isKey = byte === QUOTE && top?.kind === 'object' && top.expectingKey;
    if (top?.kind === 'array' && top.expectingValue) {
      top.index++;
      top.expectingValue = false;
    }
    if (byte === QUOTE) {
      const isSlug = !isKey && this.stack.length === 1 && top?.kind === 'object' && top.key === 'slug';
      this.string = { start: at, isKey, bytes: isKey || isSlug ? [] : null, escaped: false };
    } else if (byte === 0x7b /* { */) {
      this.stack.push({ kind: 'object', start: at, key: null, expectingKey: true });
    } else if (byte === 0x5b /* [ */) {
      this.stack.push({ kind: 'array', start: at, index: -1, expectingValue: true });
    }
  }
}

/** A string's JSON escapes read (\" and \u00e9); as written when they cannot be (a string cut at KEPT_BYTES). */
function unescaped(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** documents.3.title */
export function fieldName(path: PathSegment[]): string {
  return path.join('.');
}
