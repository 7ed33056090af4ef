// Garbage-collector tuning for the indexer, a batch job: set by bin/ppa-indexer.js before the CLI loads, and
// skipped when the operator set either flag. Why and what it saves: docs/operations.md ("Indexer memory").
import { setFlagsFromString } from 'node:v8';

/**
 * Set in the process's environment once tuned: the flags are the process's, not a module's, so the mark is too
 * (and a module-level variable would be state of its own).
 */
const TUNED_MARK = 'PPA_INDEXER_GC_TUNED';

export function tuneGarbageCollector(): void {
  const ownFlags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (/semi[-_]space|heap[-_]growing/.test(ownFlags)) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=30');
  process.env[TUNED_MARK] = '1';
}

/**
 * Whether this process is tuned. Node puts V8's flags, which are the process's, back as they were whenever it
 * starts a worker thread, so a worker of a tuned process tunes again (an untuned worker costs peak memory:
 * docs/performance.md has the figures).
 */
export function garbageCollectorTuned(): boolean {
  return process.env[TUNED_MARK] === '1';
}
