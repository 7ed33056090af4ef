// Change-log events → Atom 1.0 (RFC 4287) for GET /api/v1/ppas/feed (docs/api.md, "Changes and feeds").
//
// Hand-written rather than the npm package `feed` (v6), which cannot produce this feed as specified: its alternate
// link carries no `type` (the contract's rel="alternate" type="text/html"), it writes every entry title and summary
// as type="html" CDATA (public-sourced names such as "<script>" would become markup in readers, and a "]]>" in a
// name would end the CDATA), it leaves characters XML 1.0 forbids in the text (a control character makes the whole
// document unreadable), and it takes the feed's <updated> from the clock when none is given. It would also bring in
// xml-js and sax for what is ~100 lines of string building.
//
// Deterministic: the same events and context give the same bytes. Text is XML-escaped (`& < > " '`, and CR so it
// survives end-of-line normalization); characters XML 1.0 does not allow (controls other than tab, LF and CR,
// lone surrogates, U+FFFE and U+FFFF) are removed. Links are made IRIs: what an IRI cannot hold is percent-encoded.
// Ids are tag URIs (RFC 4151) that never change: an entry's is the event's token under the change log's creation
// date, the feed's is its canonical query.
import type { ChangeReason } from '../../indexContract/changeLog.js';
import type { ChangeEvent } from './changeEvent.js';
import { percentEncode } from './links.js';

export interface FeedContext {
  /** The request's absolute URL (the feed's rel="self"). */
  selfUrl: string;
  /** The explorer page with the same search, absolute (the feed's rel="alternate", type text/html). */
  explorerUrl: string;
  /** The search in words for the title, e.g. 'technology solar, country SN, "kafue"'; null: every PPA. */
  searchLabel: string | null;
  /** The tag URI authority: the public host name (no port), e.g. "ppa.example.org". */
  tagAuthority: string;
  /** The tag URI date (YYYY-MM-DD): the day the change log was created, so ids never change. */
  tagDate: string;
  /** The feed's <updated> when there is no event (ISO 8601 UTC). */
  emptyUpdated: string;
  /** The canonical query string of the search (may be ''), part of the feed's own id. */
  canonicalQuery: string;
}

export const FEED_MEDIA_TYPE = 'application/atom+xml; charset=utf-8';

export const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';

/** The feed-level author, so that entries need none (RFC 4287 §4.1.1). */
export const FEED_AUTHOR = 'PPA search API';

export const FEED_TITLE = 'PPA changes';

/** What happened, as the entry title's first word. */
export const REASON_TITLES: Readonly<Record<ChangeReason, string>> = {
  published: 'Published',
  updated: 'Updated',
  deactivated: 'Deactivated',
  reactivated: 'Reactivated',
  unpublished: 'Withdrawn',
  deleted: 'Removed',
};

// Compiled once: the presenter runs them on every text of every entry.
/** Characters XML 1.0 does not allow (§2.2 Char); with `u`, a lone surrogate is one code point and matches. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TEXT_SPECIAL = /[&<>"'\r]/g;
const ATTRIBUTE_SPECIAL = /[&<>"'\r\n\t]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#xD;',
  '\n': '&#xA;',
  '\t': '&#x9;',
};
const escapeChar = (char: string) => ESCAPES[char]!;

/** A tag URI's `specific` (RFC 4151: pchar / "/" / "?") for the feed's query: anything else, and a `%` that does
 * not start a percent-encoding, is percent-encoded. */
const NOT_TAG_SPECIFIC = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu;
/** The entry token's own alphabet (RFC 3986 unreserved): anything else, `%` included, is percent-encoded so that
 * distinct tokens keep distinct ids. */
const NOT_UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
/** What no IRI holds (RFC 3987 §2.2: controls, space, `"<>\^`{|}`, C1, surrogates, U+FFFE/U+FFFF) and a `%` that
 * does not start a percent-encoding: a request URL can carry some of them raw, and the feed's links must be IRIs. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_IN_IRI = /[\u0000-\u0020"<>\\^`{|}\u007F-\u009F\uD800-\uDFFF\uFFFE\uFFFF]|%(?![0-9A-Fa-f]{2})/gu;
const DNS_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const TAG_DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
/** RFC 3339 date-time in UTC, as Atom Date constructs require (§3.3). */
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** Text fit for XML 1.0: the characters it does not allow removed. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

/** Element content. */
export function escapeText(text: string): string {
  return xmlSafe(text).replace(TEXT_SPECIAL, escapeChar);
}

/** A double-quoted attribute value (tab, LF and CR kept through attribute-value normalization). */
export function escapeAttribute(text: string): string {
  return xmlSafe(text).replace(ATTRIBUTE_SPECIAL, escapeChar);
}

/** A link's href: an IRI, what it cannot hold percent-encoded. */
export function iriSafe(url: string): string {
  return url.replace(NOT_IN_IRI, (match) => percentEncode(match));
}

function tagPrefix(context: FeedContext): string {
  const authority = context.tagAuthority.toLowerCase();
  if (!DNS_NAME.test(authority)) {
    throw new Error(`feed: tagAuthority must be a host name, got ${context.tagAuthority}`);
  }
  if (!TAG_DATE.test(context.tagDate)) {
    throw new Error(`feed: tagDate must be YYYY-MM-DD, got ${context.tagDate}`);
  }
  return `tag:${authority},${context.tagDate}:`;
}

/** `tag:<authority>,<date>:ppa-feed[?<canonical query>]`. */
export function feedId(context: FeedContext): string {
  const query = context.canonicalQuery.replace(NOT_TAG_SPECIFIC, (match) => percentEncode(match));
  return `${tagPrefix(context)}ppa-feed${query === '' ? '' : `?${query}`}`;
}

/** `tag:<authority>,<date>:ppa-change:<token>`. */
export function entryId(token: string, context: FeedContext): string {
  return entryIdUnder(tagPrefix(context), token);
}

function entryIdUnder(prefix: string, token: string): string {
  return `${prefix}ppa-change:${token.replace(NOT_UNRESERVED, (match) => percentEncode(match))}`;
}

export function entryTitle(event: ChangeEvent): string {
  return `${REASON_TITLES[event.reason] ?? 'Changed'}: ${event.item.project_name}`;
}

/** Technology, capacity, country code and developer on one line; what is null or empty is left out. */
export function entrySummary(event: ChangeEvent): string {
  const { technology, capacity_mw: capacity, country_code: country, developer } = event.item;
  const parts: string[] = [];
  if (technology) parts.push(technology);
  if (typeof capacity === 'number' && Number.isFinite(capacity)) parts.push(`${capacity} MW`);
  if (country) parts.push(country);
  if (developer) parts.push(developer);
  return parts.join(' · ');
}

/** An Atom Date (RFC 3339, `Z`): the value as given when it already is one (the change log writes them so). */
function atomDate(value: string): string {
  if (RFC3339_UTC.test(value)) return value;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new Error(`feed: not a timestamp: ${value}`);
  return new Date(time).toISOString();
}

/** The newest `at` (compared as instants: "…:00Z" and "…:00.500Z" do not sort as strings). */
function newestAt(events: ChangeEvent[]): string | null {
  let newest: string | null = null;
  let newestTime = -Infinity;
  for (const event of events) {
    const time = Date.parse(event.at);
    if (time > newestTime) {
      newestTime = time;
      newest = event.at;
    }
  }
  return newest;
}

/**
 * events: newest first (at most 50, already filtered). Returns the XML and the feed's <updated> (for
 * Last-Modified).
 */
export function presentFeed(events: ChangeEvent[], context: FeedContext): { xml: string; updated: string } {
  const updated = atomDate(newestAt(events) ?? context.emptyUpdated);
  const title = context.searchLabel === null ? FEED_TITLE : `${FEED_TITLE}: ${context.searchLabel}`;
  const prefix = tagPrefix(context);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="${ATOM_NAMESPACE}">`,
    `  <id>${escapeText(feedId(context))}</id>`,
    `  <title>${escapeText(title)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeText(FEED_AUTHOR)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeAttribute(iriSafe(context.selfUrl))}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeAttribute(iriSafe(context.explorerUrl))}"/>`,
  ];
  for (const event of events) {
    lines.push(
      '  <entry>',
      `    <id>${escapeText(entryIdUnder(prefix, event.token))}</id>`,
      `    <title>${escapeText(entryTitle(event))}</title>`,
      `    <updated>${atomDate(event.at)}</updated>`,
      `    <link rel="alternate" href="${escapeAttribute(iriSafe(event.item.url))}"/>`,
      `    <category term="${escapeAttribute(event.reason)}"/>`,
      `    <summary>${escapeText(entrySummary(event))}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return { xml: lines.join('\n'), updated };
}
