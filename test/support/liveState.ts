// A live state over lookups a test names (src/liveState/): what an operation reads of what is served, without
// Elasticsearch. A lookup the test does not name rejects, as a cluster that cannot say would.
import { LiveState } from '../../src/liveState/liveState.js';
import type { LiveLookups } from '../../src/liveState/lookups.js';
import type { LimiterHealth } from '../../src/rateLimit/types.js';

export function liveStateOf(
  lookups: Partial<LiveLookups>,
  health: LimiterHealth = { status: 'ok', store: 'memory' },
): LiveState {
  const unnamed = (name: string) => () => Promise.reject(new Error(`lookup ${name} not named by the test`));
  return new LiveState({
    lookups: {
      servedState: unnamed('servedState'),
      ready: unnamed('ready'),
      liveIndex: unnamed('liveIndex'),
      liveGeneration: unnamed('liveGeneration'),
      indexContract: unnamed('indexContract'),
      vocabularyPage: unnamed('vocabularyPage'),
      flagFences: unnamed('flagFences'),
      ...lookups,
    },
    limiter: { health: () => health },
  });
}
