// The red flags' methodology version, which the indicators (flags.ts) and the fences stored with an index
// (flagPeers.ts) both carry.
/** The methodology's version: moved on when a rule changes (the index contract's version moves with it). */
export const METHODOLOGY_VERSION = 1;
