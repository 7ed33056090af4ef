// The abort signal of the client request a search is made for: aborted when the client goes away before its answer
// is sent. ./abandon.ts sets it for each API request; the gateway reads it, so that every search made for
// that request (a list's msearch, a facet search, each batch of an export) is cancelled with it, in Elasticsearch
// too, without each route passing it down.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` (and everything it awaits) with `signal` as the request's signal. */
export function withRequestSignal<T>(signal: AbortSignal, work: () => T): T {
  return storage.run(signal, work);
}

/** The signal of the request being answered, if any (none for the instance's own reads). */
export function currentRequestSignal(): AbortSignal | undefined {
  return storage.getStore();
}
