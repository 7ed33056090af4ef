// A representation: the bytes of an answer and the facts that travel with them (type, strong ETag, Link), with
// its compressed forms made once when first asked for. send() puts one on the wire: Cache-Control, the ETag of the
// form chosen, 304 when If-None-Match names it, br/gzip as the client accepts, and HEAD (Koa sends the headers
// and length of the body set, without it).
import type { Context } from 'koa';
import {
  acceptedEncoding,
  COMPRESSION_THRESHOLD_BYTES,
  decodeBody,
  encodeBody,
  isCompressible,
  type Encoding,
} from './encoding.js';
import { encodedTag, entityTag, ifNoneMatchMatches } from './entityTag.js';

export interface Representation {
  /** The media type. */
  type: string;
  /** The strong entity tag of the identity bytes. */
  etag: string;
  /** Bytes of the identity form (what decides whether it is sent compressed at all). */
  size: number;
  /**
   * The identity bytes, unless only a compressed form is kept: the response cache keeps an answer in the form
   * its first client took (a fifth of the bytes for JSON), and makes another from it when asked.
   */
  body?: Buffer;
  /** Compressed forms, each made once when first asked for. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** The Link header, when the answer has one. */
  link?: string;
  /** When what it shows last changed (ISO 8601): Last-Modified, and If-Modified-Since answered with 304. */
  lastModified?: string;
  /** How many results a search's answer found: what the log of searches that found nothing reads. */
  found?: number;
}

/** A JSON body serialized once: the bytes sent are the bytes hashed. */
export function jsonRepresentation(body: object, link?: string): Representation {
  const bytes = Buffer.from(JSON.stringify(body));
  return {
    type: 'application/json; charset=utf-8',
    etag: entityTag(bytes),
    size: bytes.length,
    body: bytes,
    encoded: {},
    ...(link ? { link } : {}),
  };
}

/** Bytes of a file (a page, an asset), tagged by their hash. */
export function fileRepresentation(
  body: Buffer,
  type: string,
  etag: string = entityTag(body),
): Representation {
  return { type, etag, size: body.length, body, encoded: {} };
}

/** The same representation in only the form `encoding` (none: identity), as a store keeps it. */
export function keptAs(representation: Representation, encoding: Encoding | undefined): Representation {
  const { body, encoded, ...facts } = representation;
  // Forms made on a copy: the representation it came from (a prebuilt document) stays as it was.
  const copy: Representation = { ...facts, encoded: { ...encoded }, ...(body ? { body } : {}) };
  if (!encoding) return { ...facts, body: identityBytes(copy), encoded: {} };
  return { ...facts, encoded: { [encoding]: encodedBytes(copy, encoding) } };
}

/** Called when a representation gained a form (a store counts its bytes again). */
export type OnGrow = () => void;

export function identityBytes(representation: Representation, onGrow?: OnGrow): Buffer {
  if (representation.body) return representation.body;
  const [encoding, bytes] = Object.entries(representation.encoded)[0] as [Encoding, Buffer];
  representation.body = decodeBody(encoding, bytes);
  onGrow?.();
  return representation.body;
}

export function encodedBytes(representation: Representation, encoding: Encoding, onGrow?: OnGrow): Buffer {
  const known = representation.encoded[encoding];
  if (known) return known;
  const bytes = encodeBody(encoding, identityBytes(representation, onGrow));
  representation.encoded[encoding] = bytes;
  onGrow?.();
  return bytes;
}

export interface SendOptions {
  cacheControl: string;
  /** More headers for this answer (a page's Content-Security-Policy). */
  headers?: Record<string, string>;
  onGrow?: OnGrow;
}

export function send(ctx: Context, representation: Representation, options: SendOptions): void {
  const { type, etag, size, link } = representation;
  ctx.set('Cache-Control', options.cacheControl);
  for (const [name, value] of Object.entries(options.headers ?? {})) ctx.set(name, value);
  if (link) ctx.set('Link', link);
  ctx.type = type;
  // Decided here, for every client alike: the compression middleware is for streams and problems only.
  ctx.compress = false;
  if (size >= COMPRESSION_THRESHOLD_BYTES && isCompressible(type)) ctx.vary('Accept-Encoding');
  const encoding = acceptedEncoding(ctx, size, type);
  ctx.set('ETag', encoding ? encodedTag(etag, encoding) : etag);
  const { lastModified } = representation;
  if (lastModified) ctx.set('Last-Modified', new Date(lastModified).toUTCString());
  if (ifNoneMatchMatches(ctx.get('If-None-Match'), etag) || notModifiedSince(ctx, lastModified)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  if (encoding) {
    ctx.body = encodedBytes(representation, encoding, options.onGrow);
    ctx.set('Content-Encoding', encoding);
  } else {
    ctx.body = identityBytes(representation, options.onGrow);
  }
}

/** RFC 9110 §13.1.3: If-Modified-Since counts only without If-None-Match, and at the precision of an HTTP-date. */
function notModifiedSince(ctx: Context, lastModified: string | undefined): boolean {
  const since = ctx.get('If-Modified-Since');
  if (!lastModified || !since || ctx.get('If-None-Match')) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && Math.floor(Date.parse(lastModified) / 1000) * 1000 <= sinceMs;
}
