// Every declared benchmark suite, in the order `npm run bench -- --help` lists them. bench/main.ts runs them;
// the smoke test (test/bench/quickForms.test.ts) runs each one's quick form.
import type { Suite } from './suite.js';
import mix from './mix.js';
import scale from './scale.js';
import floor from './floor.js';
import postgres from './postgresSource.js';
import overload from './overload.js';
import relevance from './relevance.js';
import highlights from './highlightCost.js';
import queryCost from './queryCost.js';
import queryCostMix from './queryCostMix.js';
import rollUps from './rollUps.js';
import misses from './misses.js';

export const SUITES: readonly Suite[] = [
  mix,
  scale,
  floor,
  postgres,
  overload,
  relevance,
  highlights,
  queryCost,
  queryCostMix,
  rollUps,
  misses,
];

/** The suite `npm run bench` runs without a name. */
export const DEFAULT_SUITE = mix;
