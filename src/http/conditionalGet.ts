// Caching for 200 JSON answers: a strong ETag from the serialized body, Cache-Control, and 304 when the
// client's If-None-Match already names it. Sits inside the rate limiter, so 304s keep the rate-limit headers.
import type { Middleware } from 'koa';
import { createHash } from 'node:crypto';
import { Stream } from 'node:stream';
import { withoutEncoding } from './compression.js';

export interface ConditionalGetOptions {
  maxAgeSeconds: number;
}

export function conditionalGet({ maxAgeSeconds }: ConditionalGetOptions): Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    const body: unknown = ctx.body;
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Stream) return;

    // Serialize once: the bytes sent are the bytes hashed.
    const { json, etag } = serialized(body);
    if (!ctx.type) ctx.type = 'application/json';
    ctx.body = json;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
    if (ifNoneMatchMatches(ctx.get('If-None-Match'), etag)) ctx.status = 304;
  };
}

/**
 * A frozen body (one built once and sent many times, like the OpenAPI document) is serialized and hashed once;
 * any other body on every answer (a new object each time).
 */
const frozenBodies = new WeakMap<object, { json: string; etag: string }>();

export function serialized(body: object): { json: string; etag: string } {
  const known = frozenBodies.get(body);
  if (known) return known;
  const json = JSON.stringify(body);
  const result = { json, etag: entityTag(json) };
  if (Object.isFrozen(body)) frozenBodies.set(body, result);
  return result;
}

export function entityTag(serialized: string): string {
  return `"${createHash('sha256').update(serialized).digest('base64url').slice(0, 32)}"`;
}

/** RFC 9110 §13.1.2: "*" or any listed tag, compared weakly (W/ ignored). */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '') return false;
  if (value === '*') return true;
  // Weak comparison: W/ and the encoding suffix (a tag sent with a gzip body names the same content) aside.
  const opaque = (tag: string) => withoutEncoding(tag.trim().replace(/^W\//, ''));
  return value.split(',').some((tag) => opaque(tag) === opaque(etag));
}
