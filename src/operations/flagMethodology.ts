// GET /api/v1/flags: the red flags' methodology as data: every indicator (indexContract/flags.ts) and the peer
// fences of the served index, with when they were computed (src/present/flags.ts).
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { FlagMethodologySchema, presentFlagMethodology } from '../present/flags.js';
import { operation } from './operation.js';

export const flagMethodology = operation({
  path: API_PATHS.flags,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'flagMethodology',
    tags: ['ppas'],
    summary: 'The red flags: each indicator, its rule and reference, and the peer fences in use',
    description:
      "The methodology of `flags` (docs/flags.md) as data: methodology_version, when the served index's peer " +
      'fences were computed, every indicator (code, title, description, raised_when, decidable_when, reference) ' +
      'and the peer groups of tariff_outlier (technology, currency, count, q1, q3, fence). A flag is a question ' +
      'worth asking, not a finding. Takes no query parameters (any is 400).',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'The methodology and the fences in use.', schema: 'FlagMethodology' },
      { '400': badRequest },
    ),
  },
  schemas: { FlagMethodology: FlagMethodologySchema },
  handler:
    (deps) =>
    async ({ answer }) => {
      await answer('', async () => ({
        body: presentFlagMethodology(await deps.liveState.lookups.flagFences()),
      }));
    },
});
