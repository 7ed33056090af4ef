// Reads a raw query string into parameters, keeping repeated keys (URLSearchParams sees them; koa's
// ctx.query would fold them into arrays or drop the order) and applying the contract's "blank = absent" rule.

export interface RawParams {
  /** Non-blank values per parameter name, trimmed, in the order they were sent. */
  values: Map<string, string[]>;
  /** Every parameter name that was sent, blank or not (unknown names are errors even when blank). */
  names: Set<string>;
}

export function readQueryString(querystring: string): RawParams {
  const values = new Map<string, string[]>();
  const names = new Set<string>();
  for (const [name, value] of new URLSearchParams(querystring)) {
    // A stray "&=" or "&&" carries no parameter at all.
    if (name === '' && value.trim() === '') continue;
    names.add(name);
    const trimmed = value.trim();
    if (trimmed === '') continue;
    const list = values.get(name);
    if (list) list.push(trimmed);
    else values.set(name, [trimmed]);
  }
  return { values, names };
}

/**
 * The query string in a canonical form, for a request already validated: parameters in name order (repeats keep
 * their order: it can matter, e.g. `fields`), blank ones and stray `&` left out, each part as sent. Requests that
 * differ only in parameter order or blanks get the same form, so the same answer (its links are built from it)
 * and one response-cache entry.
 */
export function canonicalQueryString(querystring: string): string {
  const parts: { name: string; part: string }[] = [];
  for (const part of querystring.split('&')) {
    if (part === '') continue;
    const [[name, value] = ['', '']] = new URLSearchParams(part);
    if (value.trim() === '') continue;
    parts.push({ name, part });
  }
  // Array.prototype.sort is stable: repeats of one name stay in the order sent.
  parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return parts.map(({ part }) => part).join('&');
}
