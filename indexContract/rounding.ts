// Rounding shared by the API's figures and the parties' sort keys: capacities to 0.1 MW, shares to 0.0001, USD to the
// dollar, half up and exact.

/** Rounds half up (all values here are ≥ 0) without binary artefacts such as 1.005 → 1. */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  // Fast path (no text): the product's binary error, at most a few 1e-16 of it, cannot carry it across a half when
  // it is below 1e9 and not within 1e-6 of one, and n / 10^d is the double nearest n·10^-d, as parsing "ne-d" is.
  const factor = 10 ** decimals;
  const scaled = value * factor;
  if (Math.abs(scaled) < 1e9 && Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
    const rounded = Math.round(scaled) / factor;
    return Object.is(rounded, -0) ? 0 : rounded;
  }
  // Near a half (or very large): shifting the decimal point in the text ("1.005e2") avoids 1.005 * 100 = 100.49999999999999.
  const shifted = Number(`${value}e${decimals}`);
  const rounded = Number.isNaN(shifted)
    ? Math.round(value * 10 ** decimals) / 10 ** decimals // exponent notation already: 1e21, 1e-7
    : Number(`${Math.round(shifted)}e-${decimals}`);
  return Object.is(rounded, -0) ? 0 : rounded;
}

export const roundMw = (value: number): number => roundTo(value, 1);
export const roundShare = (value: number): number => roundTo(value, 4);
export const roundUsd = (value: number): number => roundTo(value, 0);
