// The explorer's small helpers: elements, labels, country names, marked text, the API's answers, the message line.

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
};
const label = (value) => String(value).replaceAll('_', ' ');

// Country names, not codes (the API serves ISO 3166-1 alpha-2 codes): the browser's own CLDR names.
const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();
/** The English name of a country code ("ZM" → "Zambia"); the code itself when the browser has no name for it. */
function countryName(code) {
  if (!code) return code;
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A served value with the spans the API's `highlights` gives ([start, end) in UTF-16 code units, as slice takes
 * them) wrapped in <mark>: built from text nodes, never from HTML, so a value holding markup shows as text.
 */
function marked(value, spans) {
  const text = String(value ?? '');
  if (!Array.isArray(spans) || spans.length === 0) return [document.createTextNode(text)];
  const nodes = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (!(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= at &&
      end > start &&
      end <= text.length
    )) {
      continue; // a span the value cannot hold is left out rather than trusted
    }
    if (start > at) nodes.push(document.createTextNode(text.slice(at, start)));
    nodes.push(el('mark', {}, document.createTextNode(text.slice(start, end))));
    at = end;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/** A fact of a result, marked whole when the API says the match came through it (technology, country). */
const fact = (text, matched) => (matched ? el('mark', {}, document.createTextNode(text)) : text);

function showUrl(id, url) {
  const link = $(id);
  link.href = url;
  link.querySelector('code').textContent = new URL(url, location.href).href;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const retry = response.headers.get('Retry-After');
    const detail = body?.detail ?? `HTTP ${response.status}`;
    throw new Error(response.status === 429 ? `Too many requests: try again in ${retry} s.` : detail);
  }
  return body;
}

function say(message) {
  $('message').textContent = message;
}

export { $, countryName, el, fact, getJson, label, marked, say, showUrl };
