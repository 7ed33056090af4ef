// validateAtom: an Atom 1.0 feed checked against RFC 4287's MUSTs, for the unit tests of src/present/feed.ts and the
// integration tests of GET /api/v1/ppas/feed.
//
// Two parsers read the document. feedparser (a sax-based feed reader, strict mode) must read it as a feed and find
// every entry: what it read is returned. saxes (a conforming, namespace-aware XML 1.0 parser) builds the tree the
// rules below are checked on, since a reader tolerates what the RFC forbids. Every violation is named in one Error.
//
// Rules checked (RFC 4287 sections unless said otherwise):
// - §2: the document is well-formed XML 1.0 (and namespace-well-formed); its root is atom:feed in the namespace
//   http://www.w3.org/2005/Atom (an Entry Document is not a feed).
// - §4.1.1: atom:feed has exactly one atom:id, atom:title and atom:updated; at most one atom:generator, atom:icon,
//   atom:logo, atom:rights and atom:subtitle.
// - §4.1.1, §4.1.2: atom:author: the feed has one, or else every entry has one (itself or in its atom:source).
// - §4.1.1, §4.1.2: at most one atom:link rel="alternate" with the same type and hreflang, in the feed and in each
//   entry (a link without rel is rel="alternate", §4.2.7.2).
// - §4.1.2: each atom:entry has exactly one atom:id, atom:title and atom:updated; at most one atom:content,
//   atom:published, atom:rights, atom:source and atom:summary.
// - §4.1.2: an entry without atom:content has at least one atom:link rel="alternate".
// - §4.1.2: an entry has an atom:summary when its atom:content has a src attribute or a media type that is neither
//   XML nor text (Base64-encoded content).
// - §4.1.3.1, §4.1.3.2: atom:content's type is text, html, xhtml or a media type; with src it is empty and its type,
//   if any, is a media type.
// - §3.1.1: Text constructs (title, subtitle, summary, rights) have type text, html or xhtml (absent: text); text
//   and html hold no child element (§3.1.1.1, §3.1.1.2); xhtml holds exactly one xhtml:div (§3.1.1.3).
// - §3.2: Person constructs (author, contributor) have exactly one atom:name (§3.2.1), at most one atom:uri (§3.2.2,
//   an IRI reference) and atom:email (§3.2.3).
// - §3.3: Date constructs (updated, published) are RFC 3339 date-times with an uppercase T and Z, and real dates.
// - §4.2.6: atom:id is an IRI (RFC 3987: absolute, no relative reference); a tag: IRI also follows RFC 4151 §2.1.
// - §4.2.7.1: atom:link has an href, an IRI reference. Stricter than the RFC, which allows relative references
//   resolved with xml:base: here it must be absolute, since a feed served without xml:base is read out of context.
// - §4.2.7.2: atom:link's rel, when present, is a name (isegment-nz-nc) or an IRI; §4.2.7.3: its type is a media
//   type.
// - §4.2.2.1: atom:category has a term; §4.2.2.2: its scheme, when present, is an IRI.
import FeedParser from 'feedparser';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { isCalendarDay } from '../../indexContract/text/timestamp.js';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

export interface ParsedEntry {
  id: string;
  /** The title as the reader shows it (feedparser strips whatever looks like an HTML tag, even in type text). */
  title: string;
  /** The title's text as the XML parser read it: what was escaped, unescaped. */
  titleText: string;
  /** The rel="alternate" link. */
  link: string;
  /** The reader's date, as ISO 8601 (null: it found none). */
  updated: string | null;
  summary: string;
  categories: string[];
}

export interface ParsedFeed {
  id: string;
  /** As the reader shows it (see ParsedEntry's title). */
  title: string;
  /** As the XML parser read it. */
  titleText: string;
  updated: string | null;
  author: string;
  /** The rel="self" link. */
  self: string;
  /** The rel="alternate" link. */
  alternate: string;
  entries: ParsedEntry[];
}

/**
 * Parses `xml` with a real feed reader from npm and checks the RFC 4287 MUSTs; throws an Error naming every
 * violation. Returns what the reader parsed (feed title, entries with id/title/link/updated/summary/categories).
 */
export async function validateAtom(xml: string): Promise<ParsedFeed> {
  const violations: string[] = [];
  let root: XmlElement | null = null;
  try {
    root = parseTree(xml);
  } catch (error) {
    violations.push(`§2 not well-formed XML 1.0: ${(error as Error).message}`);
  }
  if (root) checkFeed(root, violations);
  let parsed: ParsedFeed | null = null;
  try {
    parsed = await readFeed(xml);
  } catch (error) {
    violations.push(`the feed reader (feedparser) failed: ${(error as Error).message}`);
  }
  if (parsed && root && violations.length === 0) {
    const entries = children(root, 'entry');
    if (parsed.entries.length !== entries.length) {
      violations.push(
        `the feed reader read ${parsed.entries.length} entries of the ${entries.length} in the document`,
      );
    }
    parsed.titleText = children(root, 'title')[0]?.text ?? '';
    parsed.entries.forEach((entry, index) => {
      entry.titleText = children(entries[index]!, 'title')[0]?.text ?? '';
    });
  }
  if (violations.length > 0 || !parsed) {
    throw new Error(`not a valid Atom feed (${violations.length}):\n- ${violations.join('\n- ')}`);
  }
  return parsed;
}

// --- The tree -----------------------------------------------------------------------------------------------------

interface XmlElement {
  uri: string;
  local: string;
  /** Attributes without a namespace, by local name (Atom's own attributes have none). */
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own text (not its descendants'). */
  text: string;
}

function parseTree(xml: string): XmlElement {
  const parser = new SaxesParser({
    xmlns: true,
    position: true,
    defaultXMLVersion: '1.0',
    forceXMLVersion: true,
  });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag: SaxesTagNS) => {
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === '') attributes.set(attribute.local, attribute.value);
    }
    const element: XmlElement = { uri: tag.uri, local: tag.local, attributes, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (text: string) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  // Without an error handler saxes throws at the first well-formedness error, which is what is wanted.
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

const children = (element: XmlElement, local: string, uri = ATOM_NS) =>
  element.children.filter((child) => child.uri === uri && child.local === local);

// --- The rules ----------------------------------------------------------------------------------------------------

function checkFeed(root: XmlElement, violations: string[]): void {
  if (root.local !== 'feed' || root.uri !== ATOM_NS) {
    violations.push(`§2 the root element is {${root.uri}}${root.local}, not atom:feed in ${ATOM_NS}`);
    return;
  }
  const check = (where: string, element: XmlElement) => checkCommon(where, element, violations);
  exactlyOne('feed', root, ['id', 'title', 'updated'], '§4.1.1', violations);
  atMostOne('feed', root, ['generator', 'icon', 'logo', 'rights', 'subtitle'], '§4.1.1', violations);
  check('feed', root);
  const feedHasAuthor = children(root, 'author').length > 0;
  children(root, 'entry').forEach((entry, index) => {
    const where = `entry ${index + 1}`;
    exactlyOne(where, entry, ['id', 'title', 'updated'], '§4.1.2', violations);
    atMostOne(where, entry, ['content', 'published', 'rights', 'source', 'summary'], '§4.1.2', violations);
    check(where, entry);
    const source = children(entry, 'source')[0];
    if (
      !feedHasAuthor &&
      children(entry, 'author').length === 0 &&
      !(source && children(source, 'author').length)
    ) {
      violations.push(`§4.1.1/§4.1.2 ${where} has no atom:author, and neither has the feed`);
    }
    const content = children(entry, 'content')[0];
    if (!content && !alternateLinks(entry).length) {
      violations.push(`§4.1.2 ${where} has neither atom:content nor an atom:link rel="alternate"`);
    }
    if (content) checkContent(where, entry, content, violations);
  });
}

/** What feed and entry have alike: ids, dates, text and person constructs, links, categories. */
function checkCommon(where: string, element: XmlElement, violations: string[]): void {
  for (const id of children(element, 'id')) {
    if (!isIri(id.text, true))
      violations.push(`§4.2.6 ${where}'s atom:id is not an absolute IRI: ${show(id.text)}`);
    else if (id.text.startsWith('tag:') && !TAG_URI.test(id.text)) {
      violations.push(`RFC 4151 §2.1 ${where}'s atom:id is not a tag URI: ${show(id.text)}`);
    }
  }
  for (const local of ['updated', 'published']) {
    for (const date of children(element, local)) {
      if (!isRfc3339(date.text))
        violations.push(`§3.3 ${where}'s atom:${local} is not RFC 3339: ${show(date.text)}`);
    }
  }
  for (const local of ['title', 'subtitle', 'summary', 'rights']) {
    for (const text of children(element, local)) checkText(`${where}'s atom:${local}`, text, violations);
  }
  for (const local of ['author', 'contributor']) {
    for (const person of children(element, local))
      checkPerson(`${where}'s atom:${local}`, person, violations);
  }
  const alternates = new Set<string>();
  for (const link of children(element, 'link')) {
    const href = link.attributes.get('href');
    if (href === undefined) violations.push(`§4.2.7.1 ${where} has an atom:link without href`);
    else if (!isIri(href, true)) {
      violations.push(`§4.2.7.1 ${where} has an atom:link whose href is not an absolute IRI: ${show(href)}`);
    }
    const rel = link.attributes.get('rel');
    if (rel !== undefined && !REL_NAME.test(rel) && !isIri(rel, true)) {
      violations.push(
        `§4.2.7.2 ${where} has an atom:link whose rel is neither a name nor an IRI: ${show(rel)}`,
      );
    }
    const type = link.attributes.get('type');
    if (type !== undefined && !MEDIA_TYPE.test(type)) {
      violations.push(`§4.2.7.3 ${where} has an atom:link whose type is not a media type: ${show(type)}`);
    }
    if (rel === undefined || rel === 'alternate' || rel === `${IANA_RELATIONS}alternate`) {
      const key = `${type ?? ''} ${link.attributes.get('hreflang') ?? ''}`;
      if (alternates.has(key)) {
        violations.push(
          `§4.1.1/§4.1.2 ${where} has two atom:link rel="alternate" with type ${show(type ?? '')}` +
            ` and hreflang ${show(link.attributes.get('hreflang') ?? '')}`,
        );
      }
      alternates.add(key);
    }
  }
  for (const category of children(element, 'category')) {
    if (category.attributes.get('term') === undefined)
      violations.push(`§4.2.2.1 ${where} has an atom:category without term`);
    const scheme = category.attributes.get('scheme');
    if (scheme !== undefined && !isIri(scheme, true)) {
      violations.push(`§4.2.2.2 ${where} has an atom:category whose scheme is not an IRI: ${show(scheme)}`);
    }
  }
}

function alternateLinks(element: XmlElement): XmlElement[] {
  return children(element, 'link').filter((link) => {
    const rel = link.attributes.get('rel');
    return rel === undefined || rel === 'alternate' || rel === `${IANA_RELATIONS}alternate`;
  });
}

function checkText(where: string, element: XmlElement, violations: string[]): void {
  const type = element.attributes.get('type') ?? 'text';
  if (type === 'text' || type === 'html') {
    if (element.children.length > 0) violations.push(`§3.1.1 ${where} (type ${type}) holds child elements`);
  } else if (type === 'xhtml') {
    const [div, ...rest] = element.children;
    if (!div || rest.length > 0 || div.uri !== XHTML_NS || div.local !== 'div') {
      violations.push(`§3.1.1.3 ${where} (type xhtml) does not hold exactly one xhtml:div`);
    }
  } else {
    violations.push(`§3.1.1 ${where} has type ${show(type)}, not text, html or xhtml`);
  }
}

function checkPerson(where: string, person: XmlElement, violations: string[]): void {
  if (children(person, 'name').length !== 1)
    violations.push(`§3.2.1 ${where} does not have exactly one atom:name`);
  atMostOne(where, person, ['uri', 'email'], '§3.2', violations);
  for (const uri of children(person, 'uri')) {
    if (!isIri(uri.text, false))
      violations.push(`§3.2.2 ${where}'s atom:uri is not an IRI reference: ${show(uri.text)}`);
  }
}

function checkContent(where: string, entry: XmlElement, content: XmlElement, violations: string[]): void {
  const type = content.attributes.get('type');
  const src = content.attributes.get('src');
  const textual = type === undefined || type === 'text' || type === 'html' || type === 'xhtml';
  if (!textual && !MEDIA_TYPE.test(type)) {
    violations.push(
      `§4.1.3.1 ${where}'s atom:content has type ${show(type)}, not text, html, xhtml or a media type`,
    );
  }
  if (src !== undefined) {
    if (content.children.length > 0 || content.text.trim() !== '') {
      violations.push(`§4.1.3.2 ${where}'s atom:content has src and is not empty`);
    }
    if (type !== undefined && textual) {
      violations.push(`§4.1.3.2 ${where}'s atom:content has src and type ${type}, not a media type`);
    }
  }
  const base64 = !textual && !XML_OR_TEXT_MEDIA_TYPE.test(type);
  if ((src !== undefined || base64) && children(entry, 'summary').length === 0) {
    violations.push(`§4.1.2 ${where} has no atom:summary though its atom:content has src or Base64 content`);
  }
}

function exactlyOne(
  where: string,
  element: XmlElement,
  locals: string[],
  section: string,
  violations: string[],
) {
  for (const local of locals) {
    const count = children(element, local).length;
    if (count !== 1) violations.push(`${section} ${where} has ${count} atom:${local}, not exactly one`);
  }
}

function atMostOne(
  where: string,
  element: XmlElement,
  locals: string[],
  section: string,
  violations: string[],
) {
  for (const local of locals) {
    const count = children(element, local).length;
    if (count > 1) violations.push(`${section} ${where} has ${count} atom:${local}, at most one allowed`);
  }
}

// --- Syntax -------------------------------------------------------------------------------------------------------

const IANA_RELATIONS = 'http://www.iana.org/assignments/relation/';
/** isegment-nz-nc (RFC 3987), the form of a registered relation name. */
const REL_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=@\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]|%[0-9A-Fa-f]{2})+$/;
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+\s*(?:;.*)?$/s;
const XML_OR_TEXT_MEDIA_TYPE = /^(?:text\/|[^/]+\/(?:[^;]*\+)?xml\s*(?:;|$))/i;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** ASCII that no IRI holds (RFC 3987 §2.2: controls, space, `"<>\^`{|}`), or a `%` not starting a %XX. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_IN_IRI = /[\u0000-\u0020"<>\\^`{|}\u007F-\u009F\uFFFE\uFFFF]|%(?![0-9A-Fa-f]{2})/;
/** RFC 4151 §2.1: tag:<DNS name or email>,<date>:<specific>[#fragment]. */
const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const TAG_PCHARS = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*";
const TAG_URI = new RegExp(
  `^tag:(?:${DNS_LABEL}(?:\\.${DNS_LABEL})*|[^\\s@,:]+@[A-Za-z0-9.-]+),\\d{4}(?:-\\d{2}(?:-\\d{2})?)?:` +
    `${TAG_PCHARS}(?:#${TAG_PCHARS})?$`,
);
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** An IRI (absolute: with a scheme) or an IRI reference, by its characters. */
function isIri(value: string, absolute: boolean): boolean {
  if (NOT_IN_IRI.test(value) || value.indexOf('#') !== value.lastIndexOf('#')) return false;
  return absolute ? SCHEME.test(value) : true;
}

function isRfc3339(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return (
    isCalendarDay(year!, month!, day!) &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 60 &&
    offsetHour! <= 23 &&
    offsetMinute! <= 59
  );
}

const show = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);

// --- The reader ---------------------------------------------------------------------------------------------------

async function readFeed(xml: string): Promise<ParsedFeed> {
  const { meta, items } = await new Promise<{ meta: FeedParser.Meta; items: FeedParser.Item[] }>(
    (resolve, reject) => {
      const parser = new FeedParser({ strict: true, addmeta: false, resume_saxerror: false });
      const items: FeedParser.Item[] = [];
      parser.on('error', reject);
      parser.on('readable', function (this: FeedParser) {
        for (let item = this.read(); item !== null; item = this.read()) items.push(item);
      });
      parser.on('end', () => resolve({ meta: parser.meta, items }));
      parser.end(xml);
    },
  );
  if (meta['#type'] !== 'atom') throw new Error(`read as ${meta['#type']}, not atom`);
  const links = atomLinks(meta['atom:link']);
  return {
    id: textOf(meta['atom:id']),
    title: meta.title,
    titleText: '',
    updated: meta.date ? meta.date.toISOString() : null,
    author: meta.author,
    self: links.find((link) => link.rel === 'self')?.href ?? '',
    alternate: links.find((link) => link.rel === 'alternate')?.href ?? '',
    entries: items.map((item) => ({
      id: item.guid,
      title: item.title,
      titleText: '',
      link: item.link,
      updated: item.date ? item.date.toISOString() : null,
      summary: item.summary,
      categories: item.categories,
    })),
  };
}

/** feedparser's raw element: text under '#', attributes under '@'; repeated elements as an array. */
interface RawElement {
  '#'?: string;
  '@'?: Record<string, string>;
}

function textOf(raw: unknown): string {
  return (raw as RawElement | undefined)?.['#'] ?? '';
}

function atomLinks(raw: unknown): { rel: string; href: string }[] {
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as RawElement[];
  return list.map((link) => ({ rel: link['@']?.rel ?? 'alternate', href: link['@']?.href ?? '' }));
}
