// The breaking changes api-smart-diff (1.0.6) leaves unclassified as such, judged here: a field removed from a
// response body (it counts only a removed required one), and a changed `type`, which it calls non-breaking for a
// primitive query parameter (its form-encoded text stays valid) and in a response body. A generated client reads
// the types: integer → string is another type there, and a response value that may now be null or a string where
// it was a number breaks the client's code that reads it.
import type { Diff } from 'api-smart-diff';
import { nodeAt, type DiffLocation } from './diffLocation.js';

/** A field removed from what a client receives. */
export function isRemovedResponseField(diff: Pick<Diff, 'action' | 'path'>, location: DiffLocation): boolean {
  return (
    diff.action === 'remove' &&
    location.side === 'response' &&
    location.keyword.length === 0 &&
    diff.path[diff.path.length - 2] === 'properties'
  );
}

/** A schema's types before and after a change ([]: any type, no `type` keyword). */
export interface TypeChange {
  before: string[];
  after: string[];
}

/** Whether `types` takes a value of type `type` (`number` takes an integer; [] takes everything). */
const takes = (types: readonly string[], type: string): boolean =>
  types.length === 0 || types.includes(type) || (type === 'integer' && types.includes('number'));

/**
 * Whether a change of `type` breaks a client: in what it sends, a type it could send no longer taken (integer →
 * string, number → integer, any → string); in what it receives, a type it did not expect (number → number|null).
 */
export function typeChangeBreaks(side: DiffLocation['side'], { before, after }: TypeChange): boolean {
  if (side === 'response')
    return after.some((type) => !takes(before, type)) || (after.length === 0 && before.length > 0);
  return before.some((type) => !takes(after, type)) || (before.length === 0 && after.length > 0);
}

type MergeMeta = { action: 'add' | 'remove' | 'replace' | 'rename'; replaced?: unknown };

const asTypes = (value: unknown): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);

/**
 * The types of the schema at `schemaPath` before and after, read from api-smart-diff's merged document (`metaKey`:
 * where it notes a change; an array keeps what was removed from it, noted so).
 */
export function typesAt(
  merged: unknown,
  schemaPath: readonly (string | number)[],
  metaKey: symbol,
): TypeChange {
  const schema = nodeAt(merged, schemaPath) as Record<string | symbol, unknown> | undefined;
  const type = schema?.type;
  const keyMeta = (schema?.[metaKey] as Record<string, MergeMeta> | undefined)?.type;
  if (keyMeta) {
    const before =
      keyMeta.action === 'add' ? [] : asTypes(keyMeta.action === 'replace' ? keyMeta.replaced : type);
    return { before, after: keyMeta.action === 'remove' ? [] : asTypes(type) };
  }
  if (!Array.isArray(type)) return { before: asTypes(type), after: asTypes(type) };
  const itemMeta = ((type as unknown as Record<symbol, unknown>)[metaKey] ?? {}) as Record<number, MergeMeta>;
  const before = type.flatMap((item, index) => {
    const meta = itemMeta[index];
    if (meta?.action === 'add') return [];
    return [String(meta?.action === 'replace' ? meta.replaced : item)];
  });
  const after = type.filter((_, index) => itemMeta[index]?.action !== 'remove').map(String);
  return { before, after };
}
