// The services an operation's handler is given, for tests that mount the operations on a Koa of their own: what a
// test does not name is absent (a handler that needs it fails loudly).
import { pino } from 'pino';
import { ExportSlots } from '../../src/export/exportSlots.js';
import { LiveState } from '../../src/liveState/liveState.js';
import type { LiveLookups } from '../../src/liveState/lookups.js';
import type { OperationDeps } from '../../src/operations/operation.js';
import type { ClientRateLimiter } from '../../src/rateLimit/index.js';
import { answers } from '../../src/wire/answers.js';
import { jsonRepresentation } from '../../src/wire/representation.js';

export function operationDeps(given: Partial<OperationDeps> & Pick<OperationDeps, 'search'>): OperationDeps {
  return {
    answer: answers({ maxAgeSeconds: 60 }),
    exports: { slots: new ExportSlots(4), logger: pino({ level: 'silent' }) },
    liveState: new LiveState({ lookups: {} as LiveLookups, limiter: {} as ClientRateLimiter }),
    openApiDocument: jsonRepresentation({}),
    ...given,
  };
}
