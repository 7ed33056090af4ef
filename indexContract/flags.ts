// The red flags (docs/flags.md; the API contract's "Red flags" section): one declaration per indicator, in the
// table's order, holding its code, title, rule, decidability, reference, evaluation and explanation. The indexer
// evaluates them on each record (with the peer fences stored with the index); the list, facet, roll-up,
// statistics topic, methodology endpoint, export column, OpenAPI document and docs/flags.md read this list, so an
// indicator is added here, in one place. Pure.
import { MIN_PEERS, type PeerGroup, type PeerLookup } from './flagPeers.js';
import type { Contract, PpaAttachment, PpaRecord, Procurement } from './record.js';
import { canonicalUtc } from './text/timestamp.js';

export { METHODOLOGY_VERSION } from './flagMethodology.js';
export {
  MIN_PEERS,
  peerGroupOf,
  peerLookup,
  peerRate,
  PeerRates,
  type PeerFences,
  type PeerGroup,
  type PeerLookup,
} from './flagPeers.js';

/** A competitive tender open fewer days than this is short (Cardinal R003's default threshold). */
export const SHORT_TENDER_DAYS = 30;
/** Publication more than this many days after signature is late. */
export const LATE_DISCLOSURE_DAYS = 365;
/** The `procurement.method` of a competitive tender, and those of no competition. */
const COMPETITIVE = 'competitive_tender';
const NO_COMPETITION: readonly string[] = ['direct_negotiation', 'unsolicited_proposal'];
const GUARANTEE = 'government_guarantee';
const SIGNED_CONTRACT = 'contractSigned';

/** What an indicator reads of a PPA: a source record and an indexed document both have it. */
export interface FlagSubject {
  technology: string;
  risk_features?: readonly string[] | null;
  published_at?: string | null;
  contract?: Partial<Contract> | null;
  fiscal?: PpaRecord['fiscal'];
  procurement?: Partial<Procurement> | null;
  documents?: readonly Pick<PpaAttachment, 'document_type'>[] | null;
}

export type FlagInputValue = string | number | boolean | null | string[];
export type FlagInputs = Record<string, FlagInputValue>;

/** One indicator on one PPA. */
export interface FlagOutcome {
  raised: boolean;
  decidable: boolean;
  /** The record's values the rule read (and what it derived from them, e.g. `days`). */
  inputs: FlagInputs;
  /** For tariff_outlier: the PPA's peer group (when it has one). */
  peers?: PeerGroup;
}

interface FlagContext {
  peerGroup: (technology: string, currency: string) => PeerGroup | undefined;
  /** The outcomes of the indicators before this one, by code. */
  earlier: ReadonlyMap<string, FlagOutcome>;
}

interface FlagIndicator {
  code: string;
  title: string;
  description: string;
  raised_when: string;
  decidable_when: string;
  reference: string;
  evaluate: (subject: FlagSubject, context: FlagContext) => FlagOutcome;
  /** A sentence with the numbers, for a raised outcome. */
  explain: (outcome: FlagOutcome) => string;
}

/** Whole calendar days from date `from` to date `to` (YYYY-MM-DD; negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round(
    (Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000,
  );
}

/** The UTC date of a timestamp, or null. */
function utcDate(timestamp: string | null | undefined): string | null {
  if (!timestamp) return null;
  return canonicalUtc(timestamp)?.slice(0, 10) ?? null;
}

const words = (token: string): string => token.replaceAll('_', ' ');
/** A number for a sentence: at most 4 decimals, no trailing zeros. */
const figure = (value: number): string => String(Number(value.toFixed(4)));
const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** A rule over two known dates: decidable when both are, with their distance in days. */
function datePair(first: string | null | undefined, second: string | null | undefined) {
  const known = Boolean(first) && Boolean(second);
  return { known, days: known ? daysBetween(first!, second!) : null };
}

const method = (subject: FlagSubject): string | null => subject.procurement?.method ?? null;
const competitive = (subject: FlagSubject): boolean => method(subject) === COMPETITIVE;

/** The indicators, in the table's order (flags are listed in this order everywhere). */
export const FLAG_INDICATORS = [
  {
    code: 'single_bid',
    title: 'Single bid',
    description:
      'A competitive tender that drew one bid: the competition it was meant to have did not happen.',
    raised_when: 'competitive and number_of_bidders = 1',
    decidable_when: 'competitive and number_of_bidders is known',
    reference: 'Cardinal R018 (single bid received); OCP red-flags guide',
    evaluate: (subject) => {
      const bidders = subject.procurement?.number_of_bidders ?? null;
      const decidable = competitive(subject) && bidders !== null;
      return {
        raised: decidable && bidders === 1,
        decidable,
        inputs: { method: method(subject), number_of_bidders: bidders },
      };
    },
    explain: () => 'The competitive tender drew a single bid (number_of_bidders = 1).',
  },
  {
    code: 'no_competition',
    title: 'No competition',
    description: 'The PPA was not tendered: it was negotiated directly or came from an unsolicited proposal.',
    raised_when: 'procurement.method is direct_negotiation or unsolicited_proposal',
    decidable_when: 'procurement.method is known',
    reference: 'OCP red-flags guide (non-competitive procurement)',
    evaluate: (subject) => {
      const value = method(subject);
      return {
        raised: value !== null && NO_COMPETITION.includes(value),
        decidable: value !== null,
        inputs: { method: value },
      };
    },
    explain: ({ inputs }) =>
      `The PPA was procured by ${words(String(inputs.method))}, without a competitive tender.`,
  },
  {
    code: 'short_tender',
    title: 'Short tender',
    description: `A competitive tender open fewer than ${SHORT_TENDER_DAYS} days: few bidders could prepare a bid.`,
    raised_when: `competitive and tender_end − tender_start < ${SHORT_TENDER_DAYS} days`,
    decidable_when: 'competitive and both dates are known',
    reference: 'Cardinal R003 (short submission period); OCP red-flags guide',
    evaluate: (subject) => {
      const start = subject.procurement?.tender_start ?? null;
      const end = subject.procurement?.tender_end ?? null;
      const { known, days } = datePair(start, end);
      const decidable = competitive(subject) && known;
      return {
        raised: decidable && days! < SHORT_TENDER_DAYS,
        decidable,
        inputs: { method: method(subject), tender_start: start, tender_end: end, days },
      };
    },
    explain: ({ inputs }) =>
      `The tender was open ${plural(Number(inputs.days), 'day')} (${String(inputs.tender_start)} to ` +
      `${String(inputs.tender_end)}), fewer than ${SHORT_TENDER_DAYS}.`,
  },
  {
    code: 'award_before_tender_close',
    title: 'Award before tender close',
    description: 'The award is dated before the tender closed: bids may not all have been considered.',
    raised_when: 'award_date is before tender_end',
    decidable_when: 'both dates are known',
    reference: 'OCP red-flags guide (award before the submission deadline)',
    evaluate: (subject) => {
      const award = subject.procurement?.award_date ?? null;
      const end = subject.procurement?.tender_end ?? null;
      const { known, days } = datePair(award, end);
      return {
        raised: known && days! > 0,
        decidable: known,
        inputs: { award_date: award, tender_end: end, days },
      };
    },
    explain: ({ inputs }) =>
      `The award (${String(inputs.award_date)}) came ${plural(Number(inputs.days), 'day')} before the tender ` +
      `closed (${String(inputs.tender_end)}).`,
  },
  {
    code: 'signed_before_award',
    title: 'Signed before award',
    description: 'The contract is dated before its award: the tender may have been a formality.',
    raised_when: 'contract.signed_date is before award_date',
    decidable_when: 'both dates are known',
    reference: 'OCP red-flags guide (contract signed before award)',
    evaluate: (subject) => {
      const signed = subject.contract?.signed_date ?? null;
      const award = subject.procurement?.award_date ?? null;
      const { known, days } = datePair(signed, award);
      return {
        raised: known && days! > 0,
        decidable: known,
        inputs: { signed_date: signed, award_date: award, days },
      };
    },
    explain: ({ inputs }) =>
      `The contract was signed on ${String(inputs.signed_date)}, ${plural(Number(inputs.days), 'day')} before ` +
      `its award on ${String(inputs.award_date)}.`,
  },
  {
    code: 'late_disclosure',
    title: 'Late disclosure',
    description: `Published more than ${LATE_DISCLOSURE_DAYS} days after signature: the public learnt of it late.`,
    raised_when: `the date of published_at is more than ${LATE_DISCLOSURE_DAYS} days after contract.signed_date`,
    decidable_when: 'signed_date is known (and the PPA has a publication date)',
    reference: 'OCP red-flags guide (late or no publication of the contract)',
    evaluate: (subject) => {
      const signed = subject.contract?.signed_date ?? null;
      const published = utcDate(subject.published_at);
      const { known, days } = datePair(signed, published);
      return {
        raised: known && days! > LATE_DISCLOSURE_DAYS,
        decidable: known,
        inputs: { signed_date: signed, published_on: published, days },
      };
    },
    explain: ({ inputs }) =>
      `The contract signed on ${String(inputs.signed_date)} was published on ${String(inputs.published_on)}, ` +
      `${plural(Number(inputs.days), 'day')} later (more than ${LATE_DISCLOSURE_DAYS}).`,
  },
  {
    code: 'contract_not_published',
    title: 'Contract not published',
    description: 'None of the PPA’s documents is the signed contract: only summaries or reports are public.',
    raised_when: `no document has document_type ${SIGNED_CONTRACT}`,
    decidable_when: 'always',
    reference: 'OCP red-flags guide (contract not published); OCDS documentType contractSigned',
    evaluate: (subject) => {
      const types = (subject.documents ?? []).flatMap((attachment) => attachment.document_type ?? []);
      return { raised: !types.includes(SIGNED_CONTRACT), decidable: true, inputs: { document_types: types } };
    },
    explain: ({ inputs }) => {
      const count = (inputs.document_types as string[]).length;
      return count === 0
        ? 'The PPA has no published document, so not the signed contract.'
        : `None of the PPA's ${plural(count, 'typed document')} is the signed contract (${SIGNED_CONTRACT}).`;
    },
  },
  {
    code: 'tariff_outlier',
    title: 'Tariff outlier',
    description:
      'The energy rate is far above what PPAs of the same technology cost in the same currency (a Tukey fence).',
    raised_when: 'energy_rate_per_kwh > Q3 + 1.5 × (Q3 − Q1) of its peers (type-7 quartiles)',
    decidable_when: `the rate and currency are known and the PPA's peer group has at least ${MIN_PEERS} PPAs`,
    reference: 'Tukey fences over peers (OCP red-flags guide: price outliers)',
    evaluate: (subject, { peerGroup }) => {
      const rate = subject.contract?.energy_rate_per_kwh ?? null;
      const currency = subject.contract?.currency ?? null;
      const peers = currency !== null ? peerGroup(subject.technology, currency) : undefined;
      const fence = rate !== null ? (peers?.fence ?? null) : null;
      return {
        raised: fence !== null && rate! > fence,
        decidable: fence !== null,
        inputs: { technology: subject.technology, currency, energy_rate_per_kwh: rate },
        ...(peers && peers.fence !== null ? { peers } : {}),
      };
    },
    explain: ({ inputs, peers }) =>
      `The energy rate of ${figure(Number(inputs.energy_rate_per_kwh))} ${String(inputs.currency)}/kWh is above ` +
      `the fence of ${figure(peers!.fence!)} (Q3 ${figure(peers!.q3!)} + 1.5 × (Q3 − Q1 ${figure(peers!.q1!)})) ` +
      `of ${peers!.count} ${words(peers!.technology)} PPAs in ${peers!.currency}.`,
  },
  {
    code: 'guarantee_without_competition',
    title: 'Guarantee without competition',
    description: 'A government guarantee given to a project that faced no competition or drew a single bid.',
    raised_when: 'government_guarantee is among its risk features and no_competition or single_bid is raised',
    decidable_when: 'no_competition is decidable, and for a competitive PPA single_bid is too',
    reference: 'OCP red-flags guide (fiscal risk without competition)',
    evaluate: (subject, { earlier }) => {
      const noCompetition = earlier.get('no_competition')!;
      const singleBid = earlier.get('single_bid')!;
      const guaranteed = (subject.risk_features ?? []).includes(GUARANTEE);
      const decidable = noCompetition.decidable && (!competitive(subject) || singleBid.decidable);
      return {
        raised: decidable && guaranteed && (noCompetition.raised || singleBid.raised),
        decidable,
        inputs: {
          government_guarantee: guaranteed,
          method: method(subject),
          number_of_bidders: subject.procurement?.number_of_bidders ?? null,
          guaranteed_amount_usd: subject.fiscal?.guaranteed_amount_usd ?? null,
        },
      };
    },
    explain: ({ inputs }) => {
      const amount = inputs.guaranteed_amount_usd;
      const guarantee =
        amount === null
          ? 'a government guarantee'
          : `a government guarantee of US$${Number(amount).toLocaleString('en-US')}`;
      const competition =
        inputs.method === COMPETITIVE
          ? 'its competitive tender drew a single bid'
          : `it was procured by ${words(String(inputs.method))}`;
      return `The PPA carries ${guarantee}, and ${competition}.`;
    },
  },
] as const satisfies readonly FlagIndicator[];

export type FlagCode = (typeof FLAG_INDICATORS)[number]['code'];

/** Every code, in the table's order. */
export const FLAG_CODES: readonly FlagCode[] = Object.freeze(
  FLAG_INDICATORS.map((indicator) => indicator.code),
);

/** One raised flag's evidence on the detail. */
export interface FlagEvidence {
  code: FlagCode;
  inputs: FlagInputs;
  explanation: string;
  peers?: Pick<PeerGroup, 'technology' | 'currency' | 'count' | 'q1' | 'q3' | 'fence'>;
}

/** What the indexer writes of the flags on a document. */
export interface FlagFields {
  /** The codes raised, in the table's order. */
  flags: FlagCode[];
  /**
   * The codes that could not be decided, in the table's order: the statistics' `computable` is the selection less
   * these. Fewer than the decidable ones on most PPAs, so fewer bytes a document.
   */
  flags_undecidable: FlagCode[];
  /** How many are raised (sort=flags_desc). */
  flag_count: number;
}

/** Every indicator's outcome on one PPA, by code, in the table's order (a later rule may read an earlier one). */
function outcomesOf(subject: FlagSubject, peerGroup: PeerLookup): Map<string, FlagOutcome> {
  const earlier = new Map<string, FlagOutcome>();
  for (const indicator of FLAG_INDICATORS as readonly FlagIndicator[])
    earlier.set(indicator.code, indicator.evaluate(subject, { peerGroup, earlier }));
  return earlier;
}

/** Every indicator on one PPA: the flags raised and the codes undecidable (what the indexer writes). */
export function evaluateFlags(subject: FlagSubject, peerGroup: PeerLookup): FlagFields {
  const fields: FlagFields = { flags: [], flags_undecidable: [], flag_count: 0 };
  for (const [code, outcome] of outcomesOf(subject, peerGroup)) {
    if (!outcome.decidable) fields.flags_undecidable.push(code as FlagCode);
    if (outcome.raised) fields.flags.push(code as FlagCode);
  }
  fields.flag_count = fields.flags.length;
  return fields;
}

/**
 * The evidence of the flags `raised` (the document's `flags`), in their order: the rules evaluated again on the
 * served fields with the fences of the index the document was read from, the same inputs and fences the indexer
 * raised them with, so the same outcome. Computed for the detail rather than stored: it was a quarter of every
 * document's bytes, and only the detail shows it. A code the rules no longer raise (never, with the same fences)
 * gets no evidence rather than a wrong one.
 */
export function flagEvidence(
  subject: FlagSubject,
  peerGroup: PeerLookup,
  raised: readonly string[],
): FlagEvidence[] {
  if (raised.length === 0) return [];
  const outcomes = outcomesOf(subject, peerGroup);
  return raised.flatMap((code) => {
    const outcome = outcomes.get(code);
    const indicator = INDICATOR_BY_CODE.get(code);
    if (!outcome?.raised || !indicator) return [];
    return [
      {
        code: code as FlagCode,
        inputs: outcome.inputs,
        explanation: indicator.explain(outcome),
        ...(outcome.peers ? { peers: peerSummary(outcome.peers) } : {}),
      },
    ];
  });
}

const INDICATOR_BY_CODE: ReadonlyMap<string, FlagIndicator> = new Map(
  (FLAG_INDICATORS as readonly FlagIndicator[]).map((indicator) => [indicator.code, indicator]),
);

function peerSummary({ technology, currency, count, q1, q3, fence }: PeerGroup): FlagEvidence['peers'] {
  return { technology, currency, count, q1, q3, fence };
}
