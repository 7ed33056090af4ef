// GET /health/ready: for load balancers. Unready (503) only when Elasticsearch or the alias is away; the rate
// limiter's store, a held-back sync and shedding load are reported, never a reason to be unready (the checks:
// src/liveState/readinessChecks.ts).
import { EVERY_ANSWER, headerRefs, json, problem, requestIdHeader } from '../openapi/responses.js';
import type { ReadinessSchema } from '../liveState/readinessChecks.js';
import { READINESS_SCHEMAS, readinessChecks } from '../liveState/readinessChecks.js';
import type { Static } from '../wire/bodySchema.js';
import { operation } from './operation.js';

export const readiness = operation({
  path: '/health/ready',
  doc: {
    operationId: 'readiness',
    tags: ['meta'],
    summary: 'Readiness: the search cluster answers and the alias exists (not rate limited)',
    parameters: [requestIdHeader],
    description:
      'The rate limiter is reported but never makes the instance unready: degraded means Redis is away and ' +
      'this instance limits in memory. Load is reported too, never a reason to be unready: shedding means ' +
      'searches beyond capacity are being refused (503 overloaded). The live index is judged against the index ' +
      'contract this API serves: one built by an older release is served as it is, with reindex_recommended naming ' +
      'what it lacks; one built for a newer API than this one makes the instance unready (incompatible).',
    responses: {
      '200': { description: 'Ready.', headers: headerRefs(EVERY_ANSWER), content: json('Readiness') },
      '405': problem('Method not allowed.', ['Allow'], false),
      '503': {
        description:
          'Not ready: the search cluster is unreachable, the alias is missing, or the live index needs a newer API.',
        headers: headerRefs([...EVERY_ANSWER, 'Retry-After']),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/NotReady' } } },
      },
    },
  },
  schemas: READINESS_SCHEMAS,
  handler:
    ({ liveState, admission, zeroResults }) =>
    async ({ ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      const checks = await readinessChecks(liveState, admission, zeroResults);
      ctx.body = { status: 'ready', ...checks } satisfies Static<typeof ReadinessSchema>;
    },
});
