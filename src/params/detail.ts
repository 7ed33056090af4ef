// GET /api/v1/ppas/{slug}: no query parameters; the slug follows the record's pattern.
import { NotFoundError } from '../http/problem.js';
import { NO_QUERY } from './declare.js';

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SLUG_MAX_LENGTH = 120;
const SLUG = new RegExp(SLUG_PATTERN);

/** The OpenAPI schema of the path parameter. */
export const slugSchema = {
  type: 'string',
  pattern: SLUG_PATTERN,
  maxLength: SLUG_MAX_LENGTH,
  description:
    'The PPA slug. A slug that is unknown, not published, or not even well-formed gets the same 404 answer.',
} as const;

/**
 * Checks a detail request: any query parameter is unknown (400, even blank), then a malformed slug is a 404
 * exactly like an unknown one (a client cannot tell them apart, and no lookup is needed to say so).
 */
export function parseDetailRequest(slug: string, querystring: string): string {
  NO_QUERY.parse(querystring);
  return detailSlug(slug);
}

/** The slug of a detail request, or the 404 an unknown slug gets when it is not even well-formed. */
export function detailSlug(slug: string): string {
  if (!isWellFormedSlug(slug)) throw new NotFoundError();
  return slug;
}

export function isWellFormedSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG.test(slug);
}
