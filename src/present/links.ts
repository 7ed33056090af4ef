// The links of the answers (list pages, cursor walks, "did you mean", release packages, changes, the feed's ids and
// hrefs): one percent-encoding and one query-string builder, so that every link keeps the parameters it carries
// the same way.
import { API_PATHS } from '../http/apiPath.js';
import { trimSlash } from './ppa.js';

/**
 * `text` percent-encoded octet by octet: its UTF-8 (a lone surrogate as U+FFFD's, as URL parsers do); with
 * `rawBytes`, a character below U+0100 is that one octet instead: Node hands a request target over byte by byte
 * (latin1), so a raw byte of a request's query is re-encoded as that same byte.
 */
export function percentEncode(text: string, rawBytes = false): string {
  let encoded = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const octets = rawBytes && code < 0x100 ? [code] : Buffer.from(character, 'utf8');
    for (const octet of octets) encoded += `%${octet.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

// RFC 3986 characters allowed in a query, plus "%" (already-encoded octets stay as they are) and the "[]"
// of risk_features[] that browsers send raw.
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%[\]]/gu;

/** A parameter of a request's query as sent, the characters a URL may not carry raw encoded. */
function encodeUnsafe(part: string): string {
  return part
    .replace(UNSAFE, (character) => percentEncode(character, true))
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
}

function parameterName(part: string): string {
  const [name = ''] = new URLSearchParams(part).keys();
  return name;
}

/**
 * The URL at `path` (the list's unless said) with the request's parameters: those of `replace` set (each where it
 * stood, else appended), those of `drop` left out (a name in both is appended at the end), every other kept as
 * sent, in its order. No `?` when no parameter is left.
 */
export function withParameters(
  request: { querystring: string; base: string },
  replace: Record<string, string>,
  drop: readonly string[] = [],
  path: string = API_PATHS.ppas,
): string {
  const parts: string[] = [];
  const placed = new Set<string>();
  for (const part of request.querystring.split('&')) {
    if (part === '') continue;
    const name = parameterName(part);
    if (drop.includes(name)) continue;
    if (name in replace) {
      if (!placed.has(name)) parts.push(`${name}=${encodeURIComponent(replace[name] ?? '')}`);
      placed.add(name);
      continue;
    }
    parts.push(encodeUnsafe(part));
  }
  for (const [name, value] of Object.entries(replace)) {
    if (!placed.has(name)) parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return `${trimSlash(request.base)}${path}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
}
