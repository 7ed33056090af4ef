// Prometheus durations (`5m`, `1h`, `3d`) read and written, and scaled: the Prometheus test runs the generated rules
// with every window and `for:` shrunk by a factor, so hours of burn pass in seconds.

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
] as const;

/** `90s` → 90000; an error on anything but one number and one unit. */
export function durationMs(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  const unit = UNITS.find(([name]) => name === match?.[2]);
  if (!match || !unit) throw new Error(`not a Prometheus duration of one unit: "${text}"`);
  return Number(match[1]) * unit[1];
}

/** 90000 → `90s`: the largest unit that divides it. Whole milliseconds only, at least 1. */
export function formatDuration(ms: number): string {
  if (!Number.isInteger(ms) || ms < 1) throw new Error(`not a duration Prometheus can write: ${ms} ms`);
  const [name, size] = UNITS.find(([, size]) => ms % size === 0) ?? UNITS[UNITS.length - 1]!;
  return `${ms / size}${name}`;
}

/** `text` times `scale`, rounded to the millisecond (scale 1: `text` as it is). */
export function scaleDuration(text: string, scale: number): string {
  return scale === 1 ? text : formatDuration(Math.max(1, Math.round(durationMs(text) * scale)));
}
