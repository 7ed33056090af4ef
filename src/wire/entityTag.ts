// Entity tags: a strong tag per representation's bytes, and If-None-Match compared as RFC 9110 §13.1.2 says.
import { createHash } from 'node:crypto';

/** A compressed form's suffix on the tag: `"abc"` sent gzip-encoded is `"abc-gzip"`. */
const ENCODED_TAG = /-(?:br|gzip|zstd)"$/;

export function entityTag(serialized: string | Buffer): string {
  return `"${createHash('sha256').update(serialized).digest('base64url').slice(0, 32)}"`;
}

/** The tag of `etag`'s content sent in `encoding` (another representation, so another strong tag). */
export function encodedTag(etag: string, encoding: string): string {
  return etag.replace(/"$/, `-${encoding}"`);
}

/** The tag without an encoding suffix. */
export function withoutEncoding(tag: string): string {
  return tag.replace(ENCODED_TAG, '"');
}

/** "*" or any listed tag, compared weakly: W/ and the encoding suffix aside (they name the same content). */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '') return false;
  if (value === '*') return true;
  const opaque = (tag: string) => withoutEncoding(tag.trim().replace(/^W\//, ''));
  return value.split(',').some((tag) => opaque(tag) === opaque(etag));
}
