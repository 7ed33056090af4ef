// GET /health/live: 200 while the process runs; asks nothing of Elasticsearch or Redis, never rate limited.
import { EVERY_ANSWER, headerRefs, json, problem, requestIdHeader } from '../openapi/responses.js';
import { constant, record, type Static } from '../wire/bodySchema.js';
import { operation } from './operation.js';

const LivenessSchema = record({ status: constant('ok') });

export const liveness = operation({
  path: '/health/live',
  doc: {
    operationId: 'liveness',
    tags: ['meta'],
    summary: 'Liveness: 200 while the process runs (not rate limited)',
    description:
      'Answers without asking Elasticsearch or Redis: for restarting a hung process, not for routing.',
    parameters: [requestIdHeader],
    responses: {
      '200': {
        description: 'The process is up.',
        headers: headerRefs(EVERY_ANSWER),
        content: json('Liveness'),
      },
      '405': problem('Method not allowed.', ['Allow'], false),
    },
  },
  schemas: { Liveness: LivenessSchema },
  handler:
    () =>
    ({ ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' } satisfies Static<typeof LivenessSchema>;
    },
});
