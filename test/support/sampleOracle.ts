// The contract in plain JavaScript over data/sample-ppas.ndjson (published and active records only, as the
// contract says): the oracle the API's answers on the sample index are checked against.
import { readFileSync } from 'node:fs';
import type { PpaRecord } from '../../indexContract/record.js';
import { foldText, nameSortKey } from '../../indexContract/text/fold.js';
import { roundTo } from '../../src/present/rounding.js';
import { SAMPLE_PATH } from './sampleIndex.js';

export const records: PpaRecord[] = readFileSync(SAMPLE_PATH, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as PpaRecord);
export const listed = records.filter((record) => record.published && record.active);

export interface Filters {
  technology?: string[];
  tariff?: string[];
  developer?: string;
  year?: number;
  risk?: string[];
  min?: number;
  max?: number;
}

export function oracle(filters: Filters): PpaRecord[] {
  return listed.filter(
    (r) =>
      (!filters.technology || filters.technology.includes(r.technology)) &&
      (!filters.tariff || filters.tariff.includes(r.tariff)) &&
      (filters.developer === undefined ||
        foldText(r.developer).includes(foldText(filters.developer.trim()))) &&
      (filters.year === undefined || r.financial_close_year === filters.year) &&
      (filters.risk ?? []).every((feature) => (r.risk_features ?? []).includes(feature)) &&
      (filters.min === undefined || r.capacity_mw >= filters.min) &&
      (filters.max === undefined || r.capacity_mw <= filters.max),
  );
}

/** Code point order, as Elasticsearch compares keywords (UTF-8 bytes). */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}

const time = (r: PpaRecord) => new Date(r.published_at ?? 0).getTime();
export const SORT_ORACLE: Record<string, (a: PpaRecord, b: PpaRecord) => number> = {
  name_asc: (a, b) => byCodePoint(nameSortKey(a.project_name), nameSortKey(b.project_name)),
  name_desc: (a, b) => byCodePoint(nameSortKey(b.project_name), nameSortKey(a.project_name)),
  capacity_asc: (a, b) => a.capacity_mw - b.capacity_mw,
  capacity_desc: (a, b) => b.capacity_mw - a.capacity_mw,
  recent: (a, b) => time(b) - time(a),
  oldest: (a, b) => time(a) - time(b),
};

export function sorted(list: PpaRecord[], sort: string): string[] {
  const compare = SORT_ORACLE[sort] ?? (() => 0);
  return [...list].sort((a, b) => compare(a, b) || byCodePoint(a.slug, b.slug)).map((r) => r.slug);
}

export function statisticsOracle(subset: PpaRecord[]) {
  // Capacities in tenths of a MW (the sample has one decimal at most) so the sums are exact.
  const tenths = (list: PpaRecord[]) => list.reduce((sum, r) => sum + Math.round(r.capacity_mw * 10), 0);
  const total = tenths(subset);
  const mw = (list: PpaRecord[]) => roundTo(tenths(list) / 10, 1);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : roundTo(part / whole, 4));
  const groups = (key: (r: PpaRecord) => (string | number | null)[]) => {
    const map = new Map<string | number | null, PpaRecord[]>();
    for (const r of subset) for (const k of key(r)) map.set(k, [...(map.get(k) ?? []), r]);
    return [...map.entries()];
  };
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const exposure = (feature: string) => {
    const having = subset.filter((r) => (r.risk_features ?? []).includes(feature));
    return { ppas: having.length, capacity_mw: mw(having), share_of_capacity: share(tenths(having), total) };
  };
  const usd = (field: 'annual_payment_obligation_usd' | 'guaranteed_amount_usd') =>
    Math.round(subset.reduce((sum, r) => sum + (r.fiscal?.[field] ?? 0), 0));
  const years = groups((r) => [r.financial_close_year ?? null]);
  return {
    totals: { ppas: subset.length, capacity_mw: mw(subset) },
    capacity_by_technology: groups((r) => [r.technology])
      .map(([technology, list]) => ({
        technology,
        ppas: list.length,
        capacity_mw: mw(list),
        share: share(tenths(list), total),
      }))
      .sort((a, b) => b.capacity_mw - a.capacity_mw || byKey(String(a.technology), String(b.technology))),
    capacity_by_year: [
      ...years
        .filter(([year]) => year !== null)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([year, list]) => ({ year, ppas: list.length, capacity_mw: mw(list) })),
      ...years
        .filter(([year]) => year === null)
        .map(([year, list]) => ({ year, ppas: list.length, capacity_mw: mw(list) })),
    ],
    fiscal_exposure: {
      government_guarantee: exposure('government_guarantee'),
      take_or_pay: exposure('take_or_pay'),
      annual_payment_obligation_usd: usd('annual_payment_obligation_usd'),
      guaranteed_amount_usd: usd('guaranteed_amount_usd'),
      ppas_with_disclosed_amounts: subset.filter(
        (r) => r.fiscal?.annual_payment_obligation_usd != null || r.fiscal?.guaranteed_amount_usd != null,
      ).length,
      by_risk_feature: groups((r) => [...new Set(r.risk_features ?? [])])
        .map(([risk_feature, list]) => ({ risk_feature, ppas: list.length, capacity_mw: mw(list) }))
        .sort(
          (a, b) => b.capacity_mw - a.capacity_mw || byKey(String(a.risk_feature), String(b.risk_feature)),
        ),
    },
    tariff_mix: groups((r) => [r.tariff])
      .map(([tariff, list]) => ({
        tariff,
        ppas: list.length,
        capacity_mw: mw(list),
        share: share(list.length, subset.length),
      }))
      .sort((a, b) => b.ppas - a.ppas || byKey(String(a.tariff), String(b.tariff))),
  };
}
