// The breaking changes between two OpenAPI documents, a readable line each. api-smart-diff compares them (its
// OpenAPI rules: a removed path, operation, parameter or response; a parameter newly required or a required one
// added; a request narrowed: pattern added, maxLength lowered, maximum lowered, minimum raised, enum value removed;
// a required response field made optional) and ./missedBreaks.ts adds what it does not count (a removed response
// field, a changed type). Only what the operations use is compared: a component schema no operation names breaks
// nothing, and the ones they name are compared where they are used, $refs resolved.
import { apiCompare, type Diff } from 'api-smart-diff';
import { locateDiff, type DiffLocation } from './diffLocation.js';
import { isRemovedResponseField, typeChangeBreaks, typesAt, type TypeChange } from './missedBreaks.js';

export interface BreakingChange {
  /** `GET /api/v1/ppas` (`GET, HEAD …` when HEAD, documented from GET, changed alike). */
  operation: string;
  /** The part changed: '' (the operation), "query parameter `per_page`", "response 200 (application/json) field `data[].developer`". */
  where: string;
  /** What changed: `maximum 100 → 50`, `removed`, `type integer → string`. */
  change: string;
  /** What a CHANGELOG entry may name it by: the parameter, the field (its path or last name), else the path. */
  names: string[];
}

/** `GET /api/v1/ppas query parameter \`per_page\`: maximum 100 → 50`. */
export const formatBreakingChange = ({ operation, where, change }: BreakingChange): string =>
  `${operation}${where ? ` ${where}` : ''}: ${change}`;

const META = Symbol('openapi diff');

export function breakingChanges(before: unknown, after: unknown): BreakingChange[] {
  const { diffs, merged } = apiCompare(before, after, { metaKey: META, arrayMeta: true });
  const found: BreakingChange[] = [];
  const typeChanged = new Map<string, { location: DiffLocation; types: TypeChange }>();
  for (const diff of diffs) {
    const location = locateDiff(diff.path, merged);
    if (!location) continue; // components, info, servers: what the operations use is compared where they use it
    if (location.keyword[0] === 'type') {
      // One judgement per schema, however many items of its `type` array changed.
      typeChanged.set(location.schemaPath.join('\u0000'), {
        location,
        types: typesAt(merged, location.schemaPath, META),
      });
    } else if (diff.type === 'breaking' || isRemovedResponseField(diff, location)) {
      found.push(describe(diff, location));
    }
  }
  for (const { location, types } of typeChanged.values()) {
    if (typeChangeBreaks(location.side, types)) found.push(typeChange(location, types));
  }
  return byPath(sameForHead(found));
}

const shown = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));

/** A breaking change of a keyword, a part or an operation, in words. */
function describe(diff: Diff, location: DiffLocation): BreakingChange {
  const { operation, where, keyword, names } = location;
  const [name, index] = keyword;
  const base = { operation, where, names };
  if (name === undefined) return { ...base, change: diff.action === 'add' ? 'added, required' : 'removed' };
  if (name === 'required' && index !== undefined) {
    // A `required` array's item names a field: made optional in a response, required in a request.
    const field = String(diff.before ?? diff.after);
    const made = diff.action === 'add' ? 'now required' : 'no longer required';
    const names = [location.field ? `${location.field}.${field}` : field, field];
    return { ...base, change: `\`${field}\` ${made}`, names };
  }
  if (name === 'required') return { ...base, change: 'now required' };
  if (name === 'enum' && index !== undefined) {
    return {
      ...base,
      change: `enum value ${shown(diff.before ?? diff.after)} ${diff.action === 'add' ? 'added' : 'removed'}`,
    };
  }
  const what = keyword.join('.');
  if (diff.action === 'add') return { ...base, change: `${what} ${shown(diff.after)} added` };
  if (diff.action === 'remove') return { ...base, change: `${what} ${shown(diff.before)} removed` };
  return { ...base, change: `${what} ${shown(diff.before)} → ${shown(diff.after)}` };
}

function typeChange(
  { operation, where, names }: DiffLocation,
  { before, after }: TypeChange,
): BreakingChange {
  const types = (list: string[]) => (list.length ? list.join('|') : 'any');
  return { operation, where, names, change: `type ${types(before)} → ${types(after)}` };
}

/** The changes of one path together, the paths in the order their first change was found (the document's). */
function byPath(changes: BreakingChange[]): BreakingChange[] {
  const pathOf = (change: BreakingChange) => change.operation.replace(/^\S+ (HEAD )?/, '');
  const order = [...new Set(changes.map(pathOf))];
  return changes
    .map((change, index) => ({ change, index }))
    .sort((a, b) => order.indexOf(pathOf(a.change)) - order.indexOf(pathOf(b.change)) || a.index - b.index)
    .map(({ change }) => change);
}

/** HEAD is documented from GET: a change of both is one line, `GET, HEAD /path`. */
function sameForHead(changes: BreakingChange[]): BreakingChange[] {
  const key = (change: BreakingChange, method: string) =>
    `${method} ${change.operation.replace(/^\S+ /, '')}\u0000${change.where}\u0000${change.change}`;
  const heads = new Set(changes.filter((c) => c.operation.startsWith('HEAD ')).map((c) => key(c, 'HEAD')));
  const gets = new Set(changes.filter((c) => c.operation.startsWith('GET ')).map((c) => key(c, 'GET')));
  return changes.flatMap((change) => {
    if (change.operation.startsWith('HEAD ') && gets.has(key(change, 'GET'))) return [];
    if (change.operation.startsWith('GET ') && heads.has(key(change, 'HEAD'))) {
      return [{ ...change, operation: change.operation.replace(/^GET /, 'GET, HEAD ') }];
    }
    return [change];
  });
}
