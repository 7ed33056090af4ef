// The body of a form POST (application/x-www-form-urlencoded), the one kind of body this API reads: the
// reconciliation services take their query batches that way, as the Reconciliation Service API requires. It is
// bounded in bytes before anything is parsed, like a query string (./queryLength.ts), and read as one.
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ProblemError } from './problem.js';

/**
 * The most bytes a form body may have: a batch's text at its longest (MAX_BATCH_TEXT_LENGTH characters,
 * src/params/reconcile.ts) with its punctuation percent-encoded, three bytes a character.
 */
export const MAX_FORM_BODY_BYTES = 180_000;

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export class ContentTooLargeError extends ProblemError {
  constructor() {
    super(
      413,
      'Content Too Large',
      `The body has more than ${MAX_FORM_BODY_BYTES} bytes; at most that is read.`,
    );
  }
}

export class UnsupportedMediaTypeError extends ProblemError {
  constructor(type: string) {
    super(
      415,
      'Unsupported Media Type',
      `A body is read as ${FORM_MEDIA_TYPE} only${type ? `, not ${type}` : ''}.`,
      { 'Accept-Post': FORM_MEDIA_TYPE },
    );
  }
}

/** The form body as a query string's text (percent-encoded pairs); "" when there is none. */
export async function readFormBody(ctx: Context): Promise<string> {
  const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
  const length = ctx.get('Content-Length');
  if (type !== FORM_MEDIA_TYPE) {
    if (length === '0' || (length === '' && !ctx.get('Transfer-Encoding'))) return '';
    throw new UnsupportedMediaTypeError(type);
  }
  if (Number(length) > MAX_FORM_BODY_BYTES) throw new ContentTooLargeError();
  try {
    return await getRawBody(ctx.req, {
      limit: MAX_FORM_BODY_BYTES,
      encoding: 'utf-8',
      length: length || null,
    });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new ContentTooLargeError();
    throw error;
  }
}
