// The services an operation's handler is given, for tests that mount the operations on a Koa of their own: what a
// test does not name is absent (a handler that needs it fails loudly).
import { pino } from 'pino';
import { ExportSlots } from '../../src/export/exportSlots.js';
import { LiveState } from '../../src/liveState/liveState.js';
import { ServedWordForms } from '../../src/matching/highlight/servedWordForms.js';
import type { LiveLookups } from '../../src/liveState/lookups.js';
import type { OperationDeps } from '../../src/operations/operation.js';
import type { ClientRateLimiter } from '../../src/rateLimit/index.js';
import { answers, type AnswerFn } from '../../src/wire/answers.js';
import { jsonRepresentation } from '../../src/wire/representation.js';
import { ResponseCache } from '../../src/wire/responseCache.js';
import { createZeroResultsLog } from '../../src/zeroResults/zeroResultsLog.js';

export function operationDeps(given: Partial<OperationDeps> & Pick<OperationDeps, 'search'>): OperationDeps {
  return {
    answer: answers({ maxAgeSeconds: 60 }),
    exports: { slots: new ExportSlots(4), logger: pino({ level: 'silent' }) },
    liveState: new LiveState({ lookups: {} as LiveLookups, limiter: {} as ClientRateLimiter }),
    openApiDocument: jsonRepresentation({}),
    zeroResults: createZeroResultsLog({ retentionDays: 30 }),
    ocds: { ocidPrefix: 'ocds-unregistered', publisherName: 'PPA search API' },
    wordForms: new ServedWordForms(),
    ...given,
  };
}

/**
 * The app's answer function over a response cache of one generation that never moves: a request the cache holds
 * an answer for under the same operation and normalized parameters is answered without computing.
 */
export function cachedAnswers(): AnswerFn {
  const generation = { current: () => 'ppas-test@1', onChange: () => undefined };
  return answers({ cache: new ResponseCache({ maxBytes: 1_000_000, generation }), maxAgeSeconds: 60 });
}
