// The peers of the red flags' `tariff_outlier` (docs/flags.md): the published and active PPAs of one technology
// and currency with a known rate, their type-7 quartiles and fence, collected as a reindex reads its records and
// stored with the index. Pure.
import { METHODOLOGY_VERSION } from './flagMethodology.js';
import { quartiles } from './quartiles.js';
import type { PpaRecord } from './record.js';

/** A peer group decides `tariff_outlier` only from this many PPAs on. */
export const MIN_PEERS = 10;
/** One peer group: the published and active PPAs of one technology and currency with a known rate. */
export interface PeerGroup {
  technology: string;
  currency: string;
  count: number;
  /** Type-7 quartiles and the fence Q3 + 1.5 × (Q3 − Q1); null when the group has fewer than MIN_PEERS PPAs. */
  q1: number | null;
  q3: number | null;
  fence: number | null;
}

/** The fences a reindex computed over the set it indexed, stored with the index (its _meta: `flag_fences`). */
export interface PeerFences {
  methodology_version: number;
  computed_at: string;
  groups: PeerGroup[];
}

/** A lookup of peer groups by technology and currency. */
export type PeerLookup = (technology: string, currency: string) => PeerGroup | undefined;

const peerKey = (technology: string, currency: string): string => `${technology}\u0000${currency}`;

/** The lookup of the fences stored with an index (none: no group decides anything). */
export function peerLookup(fences: PeerFences | null | undefined): PeerLookup {
  const groups: ReadonlyMap<string, PeerGroup> = new Map(
    (fences?.groups ?? []).map((group) => [peerKey(group.technology, group.currency), group]),
  );
  return (technology, currency) => groups.get(peerKey(technology, currency));
}

/** A PPA's place among the peers, when it is one: published, active, with a known currency and rate. */
export function peerRate(
  record: Pick<PpaRecord, 'published' | 'active' | 'technology' | 'contract'>,
): { technology: string; currency: string; rate: number } | null {
  const currency = record.contract?.currency ?? null;
  const rate = record.contract?.energy_rate_per_kwh ?? null;
  if (!record.published || !record.active || currency === null || rate === null) return null;
  return { technology: record.technology, currency, rate };
}

/** Collects the peers' rates, group by group, as a reindex reads its records. */
export class PeerRates {
  private readonly rates = new Map<string, { technology: string; currency: string; rates: number[] }>();

  add(peer: { technology: string; currency: string; rate: number } | null): void {
    if (peer === null) return;
    const key = peerKey(peer.technology, peer.currency);
    let group = this.rates.get(key);
    if (!group)
      this.rates.set(key, (group = { technology: peer.technology, currency: peer.currency, rates: [] }));
    group.rates.push(peer.rate);
  }

  /** The fences of every group (sorted by technology, then currency); small groups get none. */
  fences(computedAt: string): PeerFences {
    const groups = [...this.rates.values()]
      .sort((a, b) => compare(a.technology, b.technology) || compare(a.currency, b.currency))
      .map(({ technology, currency, rates }) => peerGroupOf(technology, currency, rates));
    return { methodology_version: METHODOLOGY_VERSION, computed_at: computedAt, groups };
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A group's quartiles and fence (none below MIN_PEERS). */
export function peerGroupOf(technology: string, currency: string, rates: readonly number[]): PeerGroup {
  if (rates.length < MIN_PEERS)
    return { technology, currency, count: rates.length, q1: null, q3: null, fence: null };
  const { q1, q3 } = quartiles(rates);
  return { technology, currency, count: rates.length, q1, q3, fence: q3 + 1.5 * (q3 - q1) };
}
