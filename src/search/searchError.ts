// The Elasticsearch client's errors as the gateway's own (./errors.ts): what src/http/ turns into a client's answer.
// Which client error means what is read by ./clientErrors.ts; this adds what the request itself says (its client
// went away) and tells admission of a rejection for load.
import { errors } from '@elastic/elasticsearch';
import type { Admission } from './admission.js';
import { isQueryTooLarge, isRejectedForLoad, searchOutageReason } from './clientErrors.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from './errors.js';
import { currentRequestSignal } from '../http/requestSignal.js';

/**
 * The client's error as the gateway's own, when it is one of those; anything else as it is (a bug: a 500). A
 * rejection for load (429) is counted by `admission` as a refusal, so that readiness and metrics show it.
 */
export function searchError(error: unknown, admission?: Admission): unknown {
  if (error instanceof SearchOverloadedError || error instanceof SearchAbandonedError) return error;
  if (error instanceof errors.RequestAbortedError && currentRequestSignal()?.aborted) {
    return new SearchAbandonedError({ cause: error });
  }
  if (isRejectedForLoad(error)) {
    admission?.noteRefusal();
    return new SearchOverloadedError('rejected by Elasticsearch', { cause: error });
  }
  const reason = searchOutageReason(error);
  if (reason) return new SearchUnavailableError(reason, { cause: error });
  if (isQueryTooLarge(error)) return new SearchTooLargeError({ cause: error });
  return error;
}

/** A failed search inside an _msearch answer, as the client error its own _search would have raised. */
export function msearchItemError(item: { error: unknown; status: number }): errors.ResponseError {
  return new errors.ResponseError({
    body: { error: item.error, status: item.status },
    statusCode: item.status,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}
