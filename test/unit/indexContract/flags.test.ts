import { expect } from 'chai';
import {
  daysBetween,
  evaluateFlags,
  flagEvidence,
  FLAG_CODES,
  FLAG_INDICATORS,
  MIN_PEERS,
  PeerRates,
  peerGroupOf,
  peerLookup,
  peerRate,
  type FlagSubject,
  type PeerFences,
} from '../../../indexContract/flags.js';

/** A PPA no rule raises: a competitive tender of 60 days and 5 bids, awarded, signed, published in time. */
function clean(overrides: Partial<{ [K in keyof FlagSubject]: FlagSubject[K] }> = {}): FlagSubject {
  return {
    technology: 'solar_pv',
    risk_features: ['government_guarantee'],
    published_at: '2021-01-10T12:00:00Z',
    contract: { signed_date: '2020-06-01', currency: 'USD', energy_rate_per_kwh: 0.1 },
    fiscal: {
      guaranteed_amount_usd: 1_000_000,
      annual_payment_obligation_usd: null,
      termination_payment_usd: null,
    },
    procurement: {
      method: 'competitive_tender',
      number_of_bidders: 5,
      tender_start: '2020-01-01',
      tender_end: '2020-03-01',
      award_date: '2020-04-01',
    },
    documents: [{ document_type: 'contractSigned' }],
    ...overrides,
  };
}

const procurement = (changes: Record<string, unknown>) => ({
  procurement: { ...clean().procurement, ...changes },
});
const contract = (changes: Record<string, unknown>) => ({ contract: { ...clean().contract, ...changes } });

/** Fences of one USD solar group: Q1 0.25, Q3 0.5, fence 0.875 (all exact in binary). */
const FENCES: PeerFences = {
  methodology_version: 1,
  computed_at: '2026-01-01T00:00:00Z',
  groups: [{ technology: 'solar_pv', currency: 'USD', count: 10, q1: 0.25, q3: 0.5, fence: 0.875 }],
};
const peers = peerLookup(FENCES);
const none = peerLookup(null);

/** What the indexer writes, with the evidence the detail derives for the flags raised. */
function flagsOf(subject: FlagSubject, lookup = peers) {
  const fields = evaluateFlags(subject, lookup);
  return { ...fields, flag_evidence: flagEvidence(subject, lookup, fields.flags) };
}
const raised = (subject: FlagSubject, code: string, lookup = peers) =>
  (flagsOf(subject, lookup).flags as string[]).includes(code);
const decidable = (subject: FlagSubject, code: string, lookup = peers) =>
  !(flagsOf(subject, lookup).flags_undecidable as string[]).includes(code);

describe('indexContract: red flags', () => {
  it('declares nine indicators, each with every text and a distinct code', () => {
    expect(FLAG_CODES).to.deep.equal([
      'single_bid',
      'no_competition',
      'short_tender',
      'award_before_tender_close',
      'signed_before_award',
      'late_disclosure',
      'contract_not_published',
      'tariff_outlier',
      'guarantee_without_competition',
    ]);
    for (const indicator of FLAG_INDICATORS) {
      for (const text of [
        indicator.title,
        indicator.description,
        indicator.raised_when,
        indicator.decidable_when,
        indicator.reference,
      ])
        expect(text, indicator.code).to.be.a('string').and.not.equal('');
    }
    expect(FLAG_INDICATORS.find((one) => one.code === 'single_bid')!.reference).to.contain('R018');
    expect(FLAG_INDICATORS.find((one) => one.code === 'short_tender')!.reference).to.contain('R003');
  });

  it('raises nothing on a clean PPA and decides every rule on it', () => {
    const fields = flagsOf(clean());
    expect(fields.flags).to.deep.equal([]);
    expect(fields.flag_count).to.equal(0);
    expect(fields.flag_evidence).to.deep.equal([]);
    expect(fields.flags_undecidable).to.deep.equal([]);
  });

  it('lists as undecidable exactly the rules an empty record leaves undecided, in the table order', () => {
    const bare = clean({ procurement: null, contract: null, documents: null, published_at: null });
    expect(evaluateFlags(bare, none).flags_undecidable).to.deep.equal(
      FLAG_CODES.filter((code) => code !== 'contract_not_published'),
    );
  });

  it('gives evidence only for the stored flags the rules raise again, in the stored order', () => {
    const subject = clean(procurement({ number_of_bidders: 1, method: 'competitive_tender' }));
    expect(flagEvidence(subject, peers, ['single_bid']).map((one) => one.code)).to.deep.equal(['single_bid']);
    // A stored code the same fences would not raise gets no (wrong) evidence; an empty list costs nothing.
    expect(
      flagEvidence(subject, peers, ['single_bid', 'tariff_outlier']).map((one) => one.code),
    ).to.deep.equal(['single_bid']);
    expect(flagEvidence(subject, peers, [])).to.deep.equal([]);
  });

  describe('single_bid', () => {
    it('1 bidder is raised, 2 is not, 0 is not', () => {
      expect(raised(clean(procurement({ number_of_bidders: 1 })), 'single_bid')).to.equal(true);
      expect(raised(clean(procurement({ number_of_bidders: 2 })), 'single_bid')).to.equal(false);
      expect(raised(clean(procurement({ number_of_bidders: 0 })), 'single_bid')).to.equal(false);
    });
    it('is undecidable without the number of bidders or outside a competitive tender', () => {
      expect(decidable(clean(procurement({ number_of_bidders: null })), 'single_bid')).to.equal(false);
      const direct = clean(procurement({ method: 'direct_negotiation', number_of_bidders: 1 }));
      expect(decidable(direct, 'single_bid')).to.equal(false);
      expect(raised(direct, 'single_bid')).to.equal(false);
      expect(decidable(clean({ procurement: null }), 'single_bid')).to.equal(false);
    });
  });

  describe('no_competition', () => {
    it('is raised for direct negotiation and unsolicited proposals, not for a tender or a feed-in tariff', () => {
      expect(raised(clean(procurement({ method: 'direct_negotiation' })), 'no_competition')).to.equal(true);
      expect(raised(clean(procurement({ method: 'unsolicited_proposal' })), 'no_competition')).to.equal(true);
      expect(raised(clean(procurement({ method: 'feed_in_tariff' })), 'no_competition')).to.equal(false);
      expect(raised(clean(), 'no_competition')).to.equal(false);
    });
    it('is undecidable without a method', () => {
      expect(decidable(clean(procurement({ method: null })), 'no_competition')).to.equal(false);
      expect(decidable(clean({ procurement: undefined }), 'no_competition')).to.equal(false);
    });
  });

  describe('short_tender', () => {
    const tender = (end: string) => clean(procurement({ tender_start: '2021-01-01', tender_end: end }));
    it('29 days is raised, 30 and 31 are not', () => {
      expect(raised(tender('2021-01-30'), 'short_tender')).to.equal(true);
      expect(raised(tender('2021-01-31'), 'short_tender')).to.equal(false);
      expect(raised(tender('2021-02-01'), 'short_tender')).to.equal(false);
    });
    it('equal dates (0 days) are raised', () => {
      expect(raised(tender('2021-01-01'), 'short_tender')).to.equal(true);
    });
    it('is undecidable without either date or outside a competitive tender', () => {
      expect(decidable(clean(procurement({ tender_start: null })), 'short_tender')).to.equal(false);
      expect(decidable(clean(procurement({ tender_end: null })), 'short_tender')).to.equal(false);
      const direct = clean(procurement({ method: 'direct_negotiation', tender_end: '2020-01-02' }));
      expect(decidable(direct, 'short_tender')).to.equal(false);
      expect(raised(direct, 'short_tender')).to.equal(false);
    });
    it('explains with the days and the dates', () => {
      const [evidence] = flagsOf(tender('2021-01-13')).flag_evidence;
      expect(evidence).to.deep.equal({
        code: 'short_tender',
        inputs: {
          method: 'competitive_tender',
          tender_start: '2021-01-01',
          tender_end: '2021-01-13',
          days: 12,
        },
        explanation: 'The tender was open 12 days (2021-01-01 to 2021-01-13), fewer than 30.',
      });
    });
  });

  describe('award_before_tender_close', () => {
    it('an award a day before the close is raised, the same day and later are not', () => {
      const award = (date: string) => clean(procurement({ tender_end: '2020-03-01', award_date: date }));
      expect(raised(award('2020-02-29'), 'award_before_tender_close')).to.equal(true);
      expect(raised(award('2020-03-01'), 'award_before_tender_close')).to.equal(false);
      expect(raised(award('2020-03-02'), 'award_before_tender_close')).to.equal(false);
      expect(flagsOf(award('2020-02-20')).flag_evidence[0]!.explanation).to.equal(
        'The award (2020-02-20) came 10 days before the tender closed (2020-03-01).',
      );
    });
    it('is undecidable without either date, whatever the method', () => {
      expect(decidable(clean(procurement({ award_date: null })), 'award_before_tender_close')).to.equal(
        false,
      );
      expect(decidable(clean(procurement({ tender_end: null })), 'award_before_tender_close')).to.equal(
        false,
      );
      expect(decidable(clean(procurement({ method: null })), 'award_before_tender_close')).to.equal(true);
    });
  });

  describe('signed_before_award', () => {
    it('signed a day before the award is raised, the same day is not', () => {
      const signed = (date: string) =>
        clean({ ...contract({ signed_date: date }), published_at: '2020-05-01T00:00:00Z' });
      expect(raised(signed('2020-03-31'), 'signed_before_award')).to.equal(true);
      expect(raised(signed('2020-04-01'), 'signed_before_award')).to.equal(false);
      expect(flagsOf(signed('2020-03-31')).flag_evidence[0]).to.deep.include({
        code: 'signed_before_award',
        inputs: { signed_date: '2020-03-31', award_date: '2020-04-01', days: 1 },
        explanation: 'The contract was signed on 2020-03-31, 1 day before its award on 2020-04-01.',
      });
    });
    it('is undecidable without either date', () => {
      expect(decidable(clean(contract({ signed_date: null })), 'signed_before_award')).to.equal(false);
      expect(decidable(clean(procurement({ award_date: null })), 'signed_before_award')).to.equal(false);
      expect(decidable(clean({ contract: null }), 'signed_before_award')).to.equal(false);
    });
  });

  describe('late_disclosure', () => {
    const published = (at: string) => clean({ ...contract({ signed_date: '2021-01-01' }), published_at: at });
    it('366 days is raised, 365 is not; the date is read in UTC', () => {
      expect(raised(published('2022-01-02T00:00:00Z'), 'late_disclosure')).to.equal(true);
      expect(raised(published('2022-01-01T23:59:59Z'), 'late_disclosure')).to.equal(false);
      // 2022-01-02T01:00+02:00 is 2022-01-01 in UTC: 365 days
      expect(raised(published('2022-01-02T01:00:00+02:00'), 'late_disclosure')).to.equal(false);
      expect(flagsOf(published('2023-01-01T00:00:00Z')).flag_evidence[0]).to.deep.equal({
        code: 'late_disclosure',
        inputs: { signed_date: '2021-01-01', published_on: '2023-01-01', days: 730 },
        explanation:
          'The contract signed on 2021-01-01 was published on 2023-01-01, 730 days later (more than 365).',
      });
    });
    it('is undecidable without a signed date or a publication date', () => {
      expect(decidable(clean(contract({ signed_date: null })), 'late_disclosure')).to.equal(false);
      expect(decidable(clean({ published_at: null }), 'late_disclosure')).to.equal(false);
    });
  });

  describe('contract_not_published', () => {
    it('is raised without a contractSigned document, always decidable', () => {
      const summaryOnly = clean({
        documents: [{ document_type: 'contractSummary' }, { document_type: null }],
      });
      expect(raised(summaryOnly, 'contract_not_published')).to.equal(true);
      expect(flagsOf(summaryOnly).flag_evidence[0]).to.deep.equal({
        code: 'contract_not_published',
        inputs: { document_types: ['contractSummary'] },
        explanation: "None of the PPA's 1 typed document is the signed contract (contractSigned).",
      });
      expect(raised(clean({ documents: [] }), 'contract_not_published')).to.equal(true);
      expect(raised(clean({ documents: undefined }), 'contract_not_published')).to.equal(true);
      expect(decidable(clean({ documents: undefined }), 'contract_not_published')).to.equal(true);
      expect(raised(clean(), 'contract_not_published')).to.equal(false);
    });
  });

  describe('tariff_outlier', () => {
    const rated = (rate: number | null, currency: string | null = 'USD') =>
      clean(contract({ energy_rate_per_kwh: rate, currency }));
    it('a rate above the fence is raised; exactly at the fence is not (the rule is strictly greater)', () => {
      expect(raised(rated(0.8751), 'tariff_outlier')).to.equal(true);
      expect(raised(rated(0.875), 'tariff_outlier')).to.equal(false);
      expect(decidable(rated(0.875), 'tariff_outlier')).to.equal(true);
    });
    it('carries the peers and explains with the fence', () => {
      const [evidence] = flagsOf(rated(1.2)).flag_evidence;
      expect(evidence).to.deep.equal({
        code: 'tariff_outlier',
        inputs: { technology: 'solar_pv', currency: 'USD', energy_rate_per_kwh: 1.2 },
        peers: { technology: 'solar_pv', currency: 'USD', count: 10, q1: 0.25, q3: 0.5, fence: 0.875 },
        explanation:
          'The energy rate of 1.2 USD/kWh is above the fence of 0.875 (Q3 0.5 + 1.5 × (Q3 − Q1 0.25)) of 10 solar pv PPAs in USD.',
      });
    });
    it('is undecidable without a rate, a currency, a group, or a group of fewer than 10', () => {
      expect(decidable(rated(null), 'tariff_outlier')).to.equal(false);
      expect(decidable(rated(5, null), 'tariff_outlier')).to.equal(false);
      expect(decidable(rated(5, 'EUR'), 'tariff_outlier')).to.equal(false);
      expect(decidable(rated(5), 'tariff_outlier', none)).to.equal(false);
      const small = peerLookup({
        ...FENCES,
        groups: [peerGroupOf('solar_pv', 'USD', [1, 1, 1, 1, 1, 1, 1, 1, 1])],
      });
      expect(decidable(rated(500), 'tariff_outlier', small)).to.equal(false);
    });
  });

  describe('guarantee_without_competition', () => {
    it('is raised with a guarantee and no competition, or a guarantee and a single bid', () => {
      const direct = clean(procurement({ method: 'direct_negotiation' }));
      expect(raised(direct, 'guarantee_without_competition')).to.equal(true);
      const single = clean(procurement({ number_of_bidders: 1 }));
      expect(raised(single, 'guarantee_without_competition')).to.equal(true);
      expect(flagsOf(single).flag_evidence.at(-1)!.explanation).to.equal(
        'The PPA carries a government guarantee of US$1,000,000, and its competitive tender drew a single bid.',
      );
      expect(flagsOf(direct).flag_evidence.at(-1)!.explanation).to.equal(
        'The PPA carries a government guarantee of US$1,000,000, and it was procured by direct negotiation.',
      );
    });
    it('is not raised without a guarantee, or with 2 bidders', () => {
      expect(
        raised(
          clean({ ...procurement({ method: 'direct_negotiation' }), risk_features: [] }),
          'guarantee_without_competition',
        ),
      ).to.equal(false);
      expect(raised(clean(procurement({ number_of_bidders: 2 })), 'guarantee_without_competition')).to.equal(
        false,
      );
    });
    it('is decidable when the method is known, and for a tender when the bidders are known too', () => {
      expect(decidable(clean(procurement({ method: null })), 'guarantee_without_competition')).to.equal(
        false,
      );
      expect(
        decidable(clean(procurement({ number_of_bidders: null })), 'guarantee_without_competition'),
      ).to.equal(false);
      expect(
        decidable(
          clean(procurement({ method: 'feed_in_tariff', number_of_bidders: null })),
          'guarantee_without_competition',
        ),
      ).to.equal(true);
    });
  });

  it('lists several flags in the table order, and counts them', () => {
    const fields = flagsOf(
      clean({
        ...procurement({ method: 'direct_negotiation', award_date: '2020-02-01' }),
        documents: [],
        contract: { ...clean().contract, energy_rate_per_kwh: 2 },
      }),
    );
    expect(fields.flags).to.deep.equal([
      'no_competition',
      'award_before_tender_close',
      'contract_not_published',
      'tariff_outlier',
      'guarantee_without_competition',
    ]);
    expect(fields.flag_count).to.equal(5);
    expect(fields.flag_evidence.map((evidence) => evidence.code)).to.deep.equal(fields.flags);
  });

  it('counts calendar days across leap years and month ends', () => {
    expect(daysBetween('2020-02-28', '2020-03-01')).to.equal(2);
    expect(daysBetween('2021-02-28', '2021-03-01')).to.equal(1);
    expect(daysBetween('2021-03-01', '2021-02-28')).to.equal(-1);
    expect(daysBetween('2020-01-01', '2021-01-01')).to.equal(366);
  });

  describe('peer fences', () => {
    it('9 peers give no fence, 10 give one', () => {
      expect(
        peerGroupOf(
          'wind',
          'EUR',
          Array.from({ length: MIN_PEERS - 1 }, (_, i) => i),
        ),
      ).to.deep.equal({
        technology: 'wind',
        currency: 'EUR',
        count: 9,
        q1: null,
        q3: null,
        fence: null,
      });
      // 0..9: numpy gives Q1 2.25, Q3 6.75
      expect(
        peerGroupOf(
          'wind',
          'EUR',
          Array.from({ length: MIN_PEERS }, (_, i) => i),
        ),
      ).to.deep.equal({
        technology: 'wind',
        currency: 'EUR',
        count: 10,
        q1: 2.25,
        q3: 6.75,
        fence: 6.75 + 1.5 * 4.5,
      });
    });

    it('collects only published and active PPAs with a known currency and rate, grouped and sorted', () => {
      const base = {
        published: true,
        active: true,
        technology: 'wind',
        contract: { currency: 'USD', energy_rate_per_kwh: 0.1 },
      };
      expect(peerRate(base)).to.deep.equal({ technology: 'wind', currency: 'USD', rate: 0.1 });
      expect(peerRate({ ...base, active: false })).to.equal(null);
      expect(peerRate({ ...base, published: false })).to.equal(null);
      expect(peerRate({ ...base, contract: { currency: null, energy_rate_per_kwh: 0.1 } })).to.equal(null);
      expect(peerRate({ ...base, contract: { currency: 'USD', energy_rate_per_kwh: null } })).to.equal(null);
      expect(peerRate({ ...base, contract: null })).to.equal(null);
      const rates = new PeerRates();
      rates.add({ technology: 'wind', currency: 'USD', rate: 1 });
      rates.add({ technology: 'hydro', currency: 'USD', rate: 2 });
      rates.add({ technology: 'wind', currency: 'EUR', rate: 3 });
      rates.add(null);
      rates.add({ technology: 'wind', currency: 'USD', rate: 4 });
      const fences = rates.fences('2026-01-01T00:00:00Z');
      expect(fences.computed_at).to.equal('2026-01-01T00:00:00Z');
      expect(fences.methodology_version).to.equal(1);
      expect(
        fences.groups.map(({ technology, currency, count }) => [technology, currency, count]),
      ).to.deep.equal([
        ['hydro', 'USD', 1],
        ['wind', 'EUR', 1],
        ['wind', 'USD', 2],
      ]);
    });
  });
});
