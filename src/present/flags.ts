// GET /api/v1/flags: the red flags' methodology as data (indexContract/flags.ts), with the peer fences of the served
// index (its _meta: computed by the reindex that built it). Pure.
import {
  FLAG_CODES,
  FLAG_INDICATORS,
  METHODOLOGY_VERSION,
  MIN_PEERS,
  type FlagCode,
  type PeerFences,
} from '../../indexContract/flags.js';
import { utcTimestamp } from './ppa.js';
import { count, nullable, record, text, timestamp, token, Type, type Static } from '../wire/bodySchema.js';

const amount = (description: string) => nullable(Type.Number({ description }));

export const FlagMethodologySchema = record({
  data: record({
    methodology_version: Type.Integer({ minimum: 1, description: 'The version of the rules below.' }),
    computed_at: nullable(
      timestamp(
        "When the served index's peer fences were computed (its reindex); null when it has none (an index built " +
          'before the flags, or none served).',
      ),
    ),
    min_peers: Type.Integer({
      minimum: 1,
      description: 'A peer group decides tariff_outlier from this many PPAs on.',
    }),
    indicators: Type.Array(
      record({
        code: Type.Unsafe<FlagCode>({
          type: 'string',
          enum: [...FLAG_CODES],
          description: 'Its code in `flags`.',
        }),
        title: text('A short label.'),
        description: text('What it points at.'),
        raised_when: text('The rule.'),
        decidable_when: text('When the rule can be decided (the PPA counts in `computable`).'),
        reference: text('The practice it follows (Cardinal’s indicator, the OCP red-flags guide).'),
      }),
      { description: 'Every indicator, in the order `flags` lists them.' },
    ),
    peer_groups: Type.Array(
      record({
        technology: token('Technology.'),
        currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'Contract currency.' }),
        count: count('Published, active PPAs of the group with a known energy rate.'),
        q1: amount('First quartile of their rates (type 7); null below min_peers.'),
        q3: amount('Third quartile of their rates (type 7); null below min_peers.'),
        fence: amount('Q3 + 1.5 × (Q3 − Q1): a rate above it raises tariff_outlier; null below min_peers.'),
      }),
      { description: 'The peer groups of the served index, by technology then currency.' },
    ),
  }),
});
export type FlagMethodologyBody = Static<typeof FlagMethodologySchema>;

export function presentFlagMethodology(fences: PeerFences | null): FlagMethodologyBody {
  return {
    data: {
      methodology_version: METHODOLOGY_VERSION,
      computed_at: fences ? utcTimestamp(fences.computed_at) : null,
      min_peers: MIN_PEERS,
      indicators: FLAG_INDICATORS.map(
        ({ code, title, description, raised_when, decidable_when, reference }) => ({
          code,
          title,
          description,
          raised_when,
          decidable_when,
          reference,
        }),
      ),
      peer_groups: (fences?.groups ?? []).map(({ technology, currency, count, q1, q3, fence }) => ({
        technology,
        currency,
        count,
        q1,
        q3,
        fence,
      })),
    },
  };
}
