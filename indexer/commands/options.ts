// Options that more than one command declares alike (their parsers: optionParsers.ts, changes/removalGuard.ts).
import { Option } from 'commander';
import { DEFAULT_MAX_REMOVED, parseRemovalLimit } from '../changes/removalGuard.js';

/** --max-removed, for reindex and sync: `what` is the run that would remove. */
export const maxRemovedOption = (what: string): Option =>
  new Option(
    '--max-removed <share|count>',
    `the most live PPAs ${what} may remove, as a share (5%) or a count (250); past it, nothing is applied (exit 5)`,
  )
    .argParser(parseRemovalLimit)
    .default(parseRemovalLimit(DEFAULT_MAX_REMOVED), DEFAULT_MAX_REMOVED);
