// A seeded set of records built to sit on each red-flag boundary (indexContract/flags.ts; the contract's "Red
// flags" section): 29, 30 and 31 days; 1 and 2 bidders; equal dates; 9 and 10 peers; a rate exactly at the fence;
// missing inputs of each kind. Shared by the indexer's and the API's flag tests. Their slugs start with "flag-".
import type { PpaRecord } from '../../indexContract/record.js';
import { ppaRecord } from './ppaRecords.js';

/** A record no rule raises: a competitive tender of 60 days and 5 bids, awarded, signed, published in time. */
export function cleanRecord(slug: string, changes: Partial<PpaRecord> = {}): PpaRecord {
  return ppaRecord(slug, {
    technology: 'geothermal',
    risk_features: ['government_guarantee'],
    published_at: '2021-01-10T12:00:00Z',
    contract: { signed_date: '2020-06-01', currency: 'JPY', energy_rate_per_kwh: 12 },
    fiscal: { guaranteed_amount_usd: 2_500_000 },
    procurement: {
      method: 'competitive_tender',
      number_of_bidders: 5,
      tender_start: '2020-01-01',
      tender_end: '2020-03-01',
      award_date: '2020-04-01',
    },
    documents: [
      {
        title: 'Signed PPA',
        document_type: 'contractSigned',
        url: null,
        published_on: null,
        format: null,
        language: null,
      },
    ],
    ...changes,
  });
}

const procurement = (changes: Record<string, unknown>) => ({
  procurement: { ...cleanRecord('x').procurement, ...changes },
});
const contract = (changes: Record<string, unknown>) => ({
  contract: { ...cleanRecord('x').contract, ...changes },
});

/**
 * The rates of the 10 tidal/EUR peers: sorted .1 .2 .25 .25 .3 .4 .5 .5 .6 .875, so Q1 .25, Q3 .5 and the fence
 * .875, which the last one sits on exactly (not raised: the rule is strictly greater).
 */
export const TEN_PEER_RATES = [0.1, 0.2, 0.25, 0.25, 0.3, 0.4, 0.5, 0.5, 0.6, 0.875];
/** The slug of the peer at the fence, and of the two the "moved" set lowers from .5 to .45 (fence .75). */
export const AT_FENCE = 'flag-peer-a-9';
export const MOVED = ['flag-peer-a-6', 'flag-peer-a-7'];
/** Inactive, rate .8: not a peer, but judged by its group's fence (raised once the fence moves to .75). */
export const INACTIVE_IN_GROUP = 'flag-inactive-a';

/** The seeded set; `moved`: the two peers lowered, so the tidal/EUR fence moves from .875 to .75. */
export function flagBoundaryRecords({ moved = false } = {}): PpaRecord[] {
  const tenPeers = TEN_PEER_RATES.map((rate, n) =>
    cleanRecord(`flag-peer-a-${n}`, {
      technology: 'tidal',
      ...contract({
        currency: 'EUR',
        energy_rate_per_kwh: moved && MOVED.includes(`flag-peer-a-${n}`) ? 0.45 : rate,
      }),
    }),
  );
  const ninePeers = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 5].map((rate, n) =>
    cleanRecord(`flag-peer-b-${n}`, {
      technology: 'tidal',
      ...contract({ currency: 'USD', energy_rate_per_kwh: rate }),
    }),
  );
  return [
    ...tenPeers,
    cleanRecord(INACTIVE_IN_GROUP, {
      technology: 'tidal',
      active: false,
      ...contract({ currency: 'EUR', energy_rate_per_kwh: 0.8 }),
    }),
    ...ninePeers,
    cleanRecord('flag-clean'),
    // geothermal/JPY: every other rate is 12 (Q1 = Q3 = fence = 12), so 13 is an outlier.
    cleanRecord('flag-tariff-above', contract({ energy_rate_per_kwh: 13 })),
    cleanRecord('flag-tender-29-days', procurement({ tender_start: '2020-01-01', tender_end: '2020-01-30' })),
    cleanRecord('flag-tender-30-days', procurement({ tender_start: '2020-01-01', tender_end: '2020-01-31' })),
    cleanRecord('flag-tender-31-days', procurement({ tender_start: '2020-01-01', tender_end: '2020-02-01' })),
    cleanRecord('flag-tender-0-days', procurement({ tender_start: '2020-03-01', tender_end: '2020-03-01' })),
    cleanRecord('flag-bidders-1', procurement({ number_of_bidders: 1 })),
    cleanRecord('flag-bidders-2', procurement({ number_of_bidders: 2 })),
    cleanRecord('flag-bidders-0', procurement({ number_of_bidders: 0 })),
    cleanRecord('flag-award-on-close', procurement({ award_date: '2020-03-01' })),
    cleanRecord('flag-award-day-before-close', procurement({ award_date: '2020-02-29' })),
    cleanRecord('flag-signed-on-award', contract({ signed_date: '2020-04-01' })),
    cleanRecord('flag-signed-day-before-award', contract({ signed_date: '2020-03-31' })),
    cleanRecord('flag-published-365-days', {
      ...contract({ signed_date: '2021-01-01' }),
      published_at: '2022-01-01T10:00:00Z',
    }),
    cleanRecord('flag-published-366-days', {
      ...contract({ signed_date: '2021-01-01' }),
      published_at: '2022-01-02T10:00:00Z',
    }),
    cleanRecord(
      'flag-direct-guaranteed',
      procurement({ method: 'direct_negotiation', number_of_bidders: null }),
    ),
    cleanRecord('flag-unsolicited-unguaranteed', {
      ...procurement({ method: 'unsolicited_proposal' }),
      risk_features: [],
    }),
    cleanRecord('flag-feed-in-tariff', procurement({ method: 'feed_in_tariff', number_of_bidders: null })),
    cleanRecord('flag-no-method', procurement({ method: null })),
    cleanRecord('flag-no-bidders', procurement({ number_of_bidders: null })),
    cleanRecord('flag-no-tender-dates', procurement({ tender_start: null, tender_end: null })),
    cleanRecord('flag-no-award', procurement({ award_date: null })),
    cleanRecord('flag-no-procurement', { procurement: null }),
    cleanRecord('flag-no-signed-date', contract({ signed_date: null })),
    cleanRecord('flag-no-contract', { contract: null }),
    cleanRecord('flag-no-rate', {
      technology: 'tidal',
      ...contract({ currency: 'EUR', energy_rate_per_kwh: null }),
    }),
    cleanRecord('flag-no-currency', {
      technology: 'tidal',
      ...contract({ currency: null, energy_rate_per_kwh: 9 }),
    }),
    cleanRecord('flag-no-documents', { documents: [] }),
    cleanRecord('flag-summary-only', {
      documents: [
        {
          title: 'Summary',
          document_type: 'contractSummary',
          url: null,
          published_on: null,
          format: null,
          language: null,
        },
      ],
    }),
    cleanRecord('flag-many', {
      ...procurement({ method: 'direct_negotiation', award_date: '2020-02-01' }),
      ...contract({ signed_date: '2020-01-15' }),
      published_at: '2023-06-01T00:00:00Z',
      documents: [],
    }),
    cleanRecord('flag-unpublished-many', {
      published: false,
      documents: [],
      ...procurement({ number_of_bidders: 1 }),
    }),
  ];
}
