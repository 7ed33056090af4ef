// Reads a source file one record at a time: NDJSON (numbered by line, from 1) or a JSON array (numbered by
// element index, from 0, via stream-json). Memory stays flat whatever the file size.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';
import {
  diagnoseInvalidJson,
  diagnoseInvalidUtf8,
  MAX_LINE_BYTES,
  OverlongLine,
  type LineDiagnosis,
} from './lineDiagnosis.js';
import type { FieldProblem } from './recordSchema.js';

export { MAX_LINE_BYTES };

/** The form of a source: a file's (NDJSON or a JSON array) or a PostgreSQL relation's rows (indexer/sources/postgresSource.ts). */
export type SourceFormat = 'ndjson' | 'json-array' | 'postgres';

/**
 * One entry of the source: a parsed value (with `problems` its source already found, e.g. a row whose slug column
 * differs from its record's slug), or a line that could not be parsed (too long, not UTF-8, not JSON), with its
 * problems named by field where the line shows it (lineDiagnosis.ts).
 */
export type SourceItem =
  | { line: number; value: unknown; problems?: FieldProblem[] }
  | ({ line: number; unparsed: true } & LineDiagnosis);

export interface ReadSourceOptions {
  /** Called with the bytes read so far (for progress). */
  onBytes?: (bytesRead: number) => void;
  signal?: AbortSignal;
}

/** A JSON array source whose text breaks off mid-array: nothing after the break can be read. */
export class SourceSyntaxError extends IndexerError {
  override readonly exitCode = EXIT_CODES.invalidRecords;
  constructor(
    readonly path: string,
    readonly element: number,
    detail: string,
  ) {
    super(`${path}: the JSON array is malformed at or after element ${element}: ${detail}`);
  }
}

/** A source whose first non-blank character is `[` is a JSON array; anything else is NDJSON. */
export async function detectFormat(path: string): Promise<SourceFormat> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    for (let position = 0; ; position += buffer.length) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return 'ndjson';
      const text = buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const first = text.trimStart()[0];
      if (first !== undefined) return first === '[' ? 'json-array' : 'ndjson';
    }
  } finally {
    await handle.close();
  }
}

export async function* readSource(
  path: string,
  format: SourceFormat,
  options: ReadSourceOptions = {},
): AsyncGenerator<SourceItem> {
  const stream = createReadStream(path, options.signal ? { signal: options.signal } : {});
  try {
    if (format === 'ndjson') yield* readNdjson(stream, options.onBytes);
    else yield* readJsonArray(path, stream, options.onBytes);
  } finally {
    stream.destroy();
  }
}

/** A line of the source: its text, or why it has none. */
type Line = { text: string } | { diagnosis: LineDiagnosis };

/** Strict UTF-8: an invalid byte sequence is an error, not a silent U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeLine(bytes: Uint8Array): Line {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { diagnosis: diagnoseInvalidUtf8(bytes) };
  }
}

/**
 * Lines of a stream, pulled one chunk at a time: the file is read only as fast as records are consumed, so a
 * slow bulk load never lets the source pile up in memory (readline's 'line' events would keep coming).
 *
 * Lines are cut in the bytes and each one is decoded on its own (a `\n` byte is never part of a multi-byte
 * UTF-8 character), so no string ever holds a whole chunk: once the text has one character beyond Latin-1, a
 * decoded 64 KiB chunk is a 128 KiB two-byte string, which V8 puts in its large-object space, where every
 * one that lives through a scavenge goes straight to the old generation and stays until the next full GC.
 * A line past MAX_LINE_BYTES is not kept: its bytes go through an OverlongLine as they are read, which names the
 * field that made it long, and it comes out as a problem.
 */
async function* readLines(stream: Readable, onBytes?: (bytesRead: number) => void): AsyncGenerator<Line> {
  let bytesRead = 0;
  let rest: Buffer[] = []; // the bytes of a line that began in an earlier chunk (copied: chunks are not kept)
  let restBytes = 0;
  let overlong: OverlongLine | null = null; // the current line has passed MAX_LINE_BYTES
  const overflow = (): OverlongLine => {
    const line = new OverlongLine();
    for (const bytes of rest) line.write(bytes);
    rest = [];
    return line;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    onBytes?.((bytesRead += chunk.length));
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      if (!overlong && restBytes + (end - start) > MAX_LINE_BYTES) overlong = overflow();
      if (overlong) {
        overlong.write(chunk.subarray(start, end));
        yield { diagnosis: overlong.finish() };
      } else if (rest.length > 0) {
        rest.push(chunk.subarray(start, end));
        yield decodeLine(Buffer.concat(rest));
      } else yield decodeLine(chunk.subarray(start, end));
      rest = [];
      restBytes = 0;
      overlong = null;
      start = end + 1;
    }
    if (start < chunk.length) {
      restBytes += chunk.length - start;
      if (!overlong && restBytes > MAX_LINE_BYTES) overlong = overflow();
      if (overlong) overlong.write(chunk.subarray(start));
      else rest.push(Buffer.from(chunk.subarray(start)));
    }
  }
  if (overlong) yield { diagnosis: overlong.finish() };
  else if (rest.length > 0) yield decodeLine(Buffer.concat(rest)); // a last line without a newline
}

/** A run of whole lines of an NDJSON file: its first byte, and the byte after its last line's newline. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Cuts an NDJSON file of `size` bytes into at most `parts` ranges of whole lines, about equal in bytes: each cut
 * moves on to just after the next newline. A range may hold a single long line; none is empty.
 */
export async function ndjsonRanges(path: string, size: number, parts: number): Promise<ByteRange[]> {
  const handle = await open(path, 'r');
  try {
    const cuts = [0];
    const buffer = Buffer.alloc(64 * 1024);
    for (let part = 1; part < parts; part++) {
      let position = Math.max(Math.floor((size * part) / parts), cuts[cuts.length - 1]!);
      let cut = size;
      while (position < size) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
        if (newline !== -1) {
          cut = position + newline + 1;
          break;
        }
        position += bytesRead;
      }
      if (cut < size && cut > cuts[cuts.length - 1]!) cuts.push(cut);
    }
    return cuts.map((start, i) => ({ start, end: cuts[i + 1] ?? size }));
  } finally {
    await handle.close();
  }
}

/**
 * The records of one byte range of an NDJSON file (ndjsonRanges), numbered by line from 1 within the range.
 * `count.lines` ends as the range's number of lines, blank ones included, so the next range's numbers can be
 * moved on by it.
 */
export async function* readNdjsonRange(
  path: string,
  range: ByteRange,
  count: { lines: number },
  options: ReadSourceOptions = {},
): AsyncGenerator<SourceItem> {
  if (range.end <= range.start) return;
  const stream = createReadStream(path, {
    start: range.start,
    end: range.end - 1, // inclusive
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    yield* readNdjson(stream, options.onBytes, { bom: range.start === 0, count });
  } finally {
    stream.destroy();
  }
}

async function* readNdjson(
  stream: Readable,
  onBytes?: (bytesRead: number) => void,
  // A range after the file's first cannot start with its BOM; `count` is told each line as it is read.
  { bom = true, count }: { bom?: boolean; count?: { lines: number } } = {},
): AsyncGenerator<SourceItem> {
  let line = 0;
  for await (const read of readLines(stream, onBytes)) {
    line++;
    if (count) count.lines = line;
    if ('diagnosis' in read) {
      yield { line, unparsed: true, ...read.diagnosis };
      continue;
    }
    const { text } = read;
    const trimmed = (line === 1 && bom ? text.replace(/^\uFEFF/, '') : text).trim(); // also drops a CRLF's \r
    if (trimmed === '') continue; // blank lines (a trailing newline, say) are not records
    try {
      yield { line, value: JSON.parse(trimmed) as unknown };
    } catch (error) {
      yield { line, unparsed: true, ...diagnoseInvalidJson(trimmed, error) };
    }
  }
}

/**
 * Passes the bytes on unchanged once they are known to be UTF-8 (a JSON array cannot skip one bad element the
 * way NDJSON skips a line: an invalid byte sequence ends the read with its position).
 */
function strictUtf8(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        callback(new Error(`not valid UTF-8 (in the bytes from offset ${offset})`));
        return;
      }
      offset += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      try {
        decoder.decode();
        callback();
      } catch {
        callback(new Error('not valid UTF-8 (the file ends inside a character)'));
      }
    },
  });
}

async function* readJsonArray(
  path: string,
  stream: Readable,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<SourceItem> {
  let bytesRead = 0;
  // pipe() pauses the file when the parser is full, so this listener does not make it flow faster.
  if (onBytes) stream.on('data', (chunk: Buffer) => onBytes((bytesRead += chunk.length)));
  const checked = stream.pipe(strictUtf8());
  const elements = checked.pipe(StreamArray.withParser());
  stream.on('error', (error) => elements.destroy(error));
  checked.on('error', (error) => elements.destroy(error));
  let next = 0;
  try {
    for await (const element of elements as AsyncIterable<{ key: number; value: unknown }>) {
      next = element.key + 1;
      yield { line: element.key, value: element.value };
    }
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') throw error;
    throw new SourceSyntaxError(path, next, error instanceof Error ? error.message : String(error));
  } finally {
    elements.destroy();
  }
}
