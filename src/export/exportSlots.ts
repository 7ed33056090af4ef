// How many exports run at once: one per client, EXPORT_CONCURRENCY per instance. An export holds a slot from its
// first byte to its last (or to the client's disconnect); beyond the limits the answer is 429 with Retry-After.
import { ProblemError } from '../http/problem.js';

/** A client whose export is refused tries again after this long: exports take seconds to minutes. */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

export class ExportSlots {
  private readonly clients = new Set<string>();

  constructor(private readonly perInstance: number) {}

  /** Takes a slot for `client`; returns the function that gives it back (once). Throws a 429 ProblemError. */
  acquire(client: string): () => void {
    if (this.clients.has(client)) throw tooMany('This client already runs an export: one at a time.');
    if (this.clients.size >= this.perInstance) {
      throw tooMany(`${this.perInstance} exports are running on this instance: try again shortly.`);
    }
    this.clients.add(client);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.clients.delete(client);
    };
  }

  /** Exports running now. */
  get running(): number {
    return this.clients.size;
  }
}

function tooMany(detail: string): ProblemError {
  return new ProblemError(429, 'Too Many Requests', detail, {
    'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS),
  });
}
