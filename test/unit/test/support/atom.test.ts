// validateAtom must refuse what RFC 4287 forbids: each broken feed below is the valid one with one fault put in.
import { expect } from 'chai';
import { validateAtom } from '../../../support/atom.js';

const ENTRY = `<entry>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <title>Published: Kahone Solar</title>
    <updated>2026-01-15T12:00:00Z</updated>
    <link rel="alternate" href="https://api.example.org/api/v1/ppas/kahone-solar"/>
    <category term="published"/>
    <summary>solar_pv · 60 MW · SN</summary>
  </entry>`;

const AUTHOR = '<author><name>PPA search API</name></author>';

function feed({ head = '', author = AUTHOR, entries = [ENTRY] } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>tag:api.example.org,2025-11-01:ppa-feed</id>
  <title>PPA changes</title>
  <updated>2026-01-15T12:00:00Z</updated>
  ${author}
  <link rel="self" type="application/atom+xml" href="https://api.example.org/api/v1/ppas/feed"/>
  <link rel="alternate" type="text/html" href="https://api.example.org/explorer"/>
  ${head}
  ${entries.join('\n  ')}
</feed>
`;
}

const VALID = feed();

/** `xml` is refused with a message naming every pattern. */
async function expectRefused(xml: string, ...patterns: RegExp[]): Promise<string> {
  let message: string | null = null;
  try {
    await validateAtom(xml);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message, 'validateAtom accepted the feed').to.be.a('string');
  for (const pattern of patterns) expect(message).to.match(pattern);
  return message!;
}

function replaced(xml: string, from: string | RegExp, to: string): string {
  const result = xml.replace(from, to);
  expect(result, `${String(from)} not found`).not.to.equal(xml);
  return result;
}

describe('test support: validateAtom', () => {
  it('accepts the valid feed the other cases break, and returns what the reader read', async () => {
    const parsed = await validateAtom(VALID);
    expect(parsed).to.deep.include({
      id: 'tag:api.example.org,2025-11-01:ppa-feed',
      title: 'PPA changes',
      updated: '2026-01-15T12:00:00.000Z',
      author: 'PPA search API',
      self: 'https://api.example.org/api/v1/ppas/feed',
      alternate: 'https://api.example.org/explorer',
    });
    expect(parsed.entries).to.deep.equal([
      {
        id: 'urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a',
        title: 'Published: Kahone Solar',
        titleText: 'Published: Kahone Solar',
        link: 'https://api.example.org/api/v1/ppas/kahone-solar',
        updated: '2026-01-15T12:00:00.000Z',
        summary: 'solar_pv · 60 MW · SN',
        categories: ['published'],
      },
    ]);
  });

  it('accepts what the RFC allows: authors on every entry instead of the feed, content instead of a link', async () => {
    const authored = replaced(ENTRY, '<category', `${AUTHOR}<category`);
    await validateAtom(feed({ author: '', entries: [authored, authored] }));
    const withContent = replaced(
      ENTRY,
      /<link rel="alternate"[^>]*>/,
      '<content type="html">&lt;p&gt;x&lt;/p&gt;</content>',
    );
    await validateAtom(feed({ entries: [withContent] }));
    await validateAtom(
      replaced(
        VALID,
        '2026-01-15T12:00:00Z</updated>\n    <link',
        '2026-01-15T13:00:00.25+01:00</updated>\n    <link',
      ),
    );
  });

  it('refuses a feed or an entry without id', async () => {
    await expectRefused(replaced(VALID, /<id>tag:[^<]*<\/id>/, ''), /§4\.1\.1 feed has 0 atom:id/);
    await expectRefused(replaced(VALID, /<id>urn:[^<]*<\/id>/, ''), /§4\.1\.2 entry 1 has 0 atom:id/);
  });

  it('refuses two titles, in the feed or in an entry', async () => {
    await expectRefused(
      replaced(VALID, '<title>PPA changes</title>', '<title>A</title><title>B</title>'),
      /feed has 2 atom:title/,
    );
    await expectRefused(
      replaced(VALID, '<title>Published', '<title>x</title><title>Published'),
      /entry 1 has 2 atom:title/,
    );
  });

  it('refuses a missing updated and a second summary', async () => {
    await expectRefused(
      replaced(VALID, '<updated>2026-01-15T12:00:00Z</updated>\n    <link', '<link'),
      /entry 1 has 0 atom:updated/,
    );
    await expectRefused(
      replaced(VALID, '<summary>', '<summary>a</summary><summary>'),
      /entry 1 has 2 atom:summary, at most one/,
    );
  });

  it('refuses relative links and links without href', async () => {
    await expectRefused(
      replaced(
        VALID,
        'href="https://api.example.org/api/v1/ppas/kahone-solar"',
        'href="/api/v1/ppas/kahone-solar"',
      ),
      /§4\.2\.7\.1 entry 1 has an atom:link whose href is not an absolute IRI: "\/api\/v1\/ppas\/kahone-solar"/,
    );
    await expectRefused(
      replaced(VALID, 'href="https://api.example.org/explorer"', 'href="explorer"'),
      /feed has an atom:link whose href/,
    );
    await expectRefused(
      replaced(VALID, 'href="https://api.example.org/explorer"', ''),
      /feed has an atom:link without href/,
    );
    await expectRefused(
      replaced(VALID, 'href="https://api.example.org/explorer"', 'href="https://api.example.org/a b"'),
      /not an absolute IRI/,
    );
  });

  it('refuses ids that are not absolute IRIs', async () => {
    await expectRefused(
      replaced(VALID, '<id>urn:uuid:', '<id>uuid/'),
      /§4\.2\.6 entry 1's atom:id is not an absolute IRI/,
    );
    await expectRefused(replaced(VALID, '<id>urn:uuid:', '<id> urn:uuid:'), /§4\.2\.6 entry 1's atom:id/);
    await expectRefused(
      replaced(VALID, 'tag:api.example.org,2025-11-01:', 'tag:api.example.org:8080,2025-11-01:'),
      /RFC 4151 §2\.1 feed's atom:id is not a tag URI/,
    );
  });

  it('refuses dates that are not RFC 3339', async () => {
    for (const bad of [
      '2026-01-15T12:00:00', // no offset
      '2026-01-15 12:00:00Z', // space
      '2026-01-15t12:00:00z', // lowercase
      '2026-02-30T12:00:00Z', // no such day
      '2026-01-15T24:00:00Z',
      'Thu, 15 Jan 2026 12:00:00 GMT',
      '2026-01-15',
    ]) {
      await expectRefused(
        replaced(
          VALID,
          '<updated>2026-01-15T12:00:00Z</updated>\n    <link',
          `<updated>${bad}</updated>\n    <link`,
        ),
        new RegExp(`§3\\.3 entry 1's atom:updated is not RFC 3339: "${bad}"`),
      );
    }
  });

  it('refuses a feed with no author anywhere, and an author without a name', async () => {
    await expectRefused(feed({ author: '' }), /entry 1 has no atom:author, and neither has the feed/);
    const authored = replaced(ENTRY, '<category', `${AUTHOR}<category`);
    await expectRefused(feed({ author: '', entries: [authored, ENTRY] }), /entry 2 has no atom:author/);
    await expectRefused(
      feed({ author: '<author><uri>https://x.org/</uri></author>' }),
      /§3\.2\.1 feed's atom:author does not have exactly one atom:name/,
    );
  });

  it('refuses two alternate links alike (type, hreflang), and an entry with neither link nor content', async () => {
    await expectRefused(
      feed({ head: '<link rel="alternate" type="text/html" href="https://api.example.org/other"/>' }),
      /feed has two atom:link rel="alternate" with type "text\/html"/,
    );
    await validateAtom(
      feed({
        head: '<link rel="alternate" type="text/html" hreflang="fr" href="https://api.example.org/fr"/>',
      }),
    );
    await expectRefused(
      replaced(VALID, /<link rel="alternate" href="[^"]*"\/>/, ''),
      /entry 1 has neither atom:content nor an atom:link rel="alternate"/,
    );
    await expectRefused(
      replaced(VALID, /<link rel="alternate" (href="[^"]*"\/>)/, '<link rel="alternate" $1<link $1'),
      /entry 1 has two atom:link rel="alternate"/,
    );
  });

  it('refuses content by src without summary, text of an unknown type, a category without term', async () => {
    const byReference = replaced(
      ENTRY,
      /<summary>.*<\/summary>/,
      '<content type="application/pdf" src="https://x.org/a.pdf"/>',
    );
    await expectRefused(feed({ entries: [byReference] }), /§4\.1\.2 entry 1 has no atom:summary/);
    await expectRefused(
      replaced(VALID, '<summary>', '<summary type="markdown">'),
      /§3\.1\.1 entry 1's atom:summary has type "markdown"/,
    );
    await expectRefused(
      replaced(VALID, '<title>PPA changes</title>', '<title>PPA <b>changes</b></title>'),
      /feed's atom:title \(type text\) holds child elements/,
    );
    await expectRefused(
      replaced(VALID, '<category term="published"/>', '<category/>'),
      /§4\.2\.2\.1 entry 1 has an atom:category without term/,
    );
  });

  it('refuses what is not well-formed XML 1.0', async () => {
    await expectRefused(
      replaced(VALID, '</entry>', ''),
      /§2 not well-formed XML 1\.0/,
      /feedparser\) failed/,
    );
    await expectRefused(replaced(VALID, 'Kahone Solar', 'Kahone & Solar'), /§2 not well-formed/);
    await expectRefused(replaced(VALID, 'Kahone Solar', 'Kahone <script>Solar'), /§2 not well-formed/);
    await expectRefused(
      replaced(VALID, 'Kahone Solar', 'Kahone \u0007Solar'),
      /§2 not well-formed XML 1\.0: .*disallowed character/,
    );
    await expectRefused(replaced(VALID, 'Kahone Solar', 'Kahone &nbsp;Solar'), /§2 not well-formed/);
    await expectRefused('', /§2 not well-formed/);
  });

  it('refuses another root or namespace, and what the reader cannot read as Atom', async () => {
    await expectRefused(
      replaced(VALID, 'http://www.w3.org/2005/Atom', 'http://purl.org/atom/ns#'),
      /§2 the root element is \{http:\/\/purl\.org\/atom\/ns#\}feed/,
    );
    await expectRefused(
      replaced(VALID, ' xmlns="http://www.w3.org/2005/Atom"', ''),
      /§2 the root element is \{\}feed/,
    );
    await expectRefused(
      '<rss version="2.0"><channel><title>x</title></channel></rss>',
      /root element is \{\}rss/,
      /read as rss, not atom/,
    );
  });

  it('names every violation at once', async () => {
    const broken = replaced(
      replaced(feed({ author: '' }), /<id>tag:[^<]*<\/id>/, ''),
      '<updated>2026-01-15T12:00:00Z</updated>\n  ',
      '',
    );
    const message = await expectRefused(
      broken,
      /feed has 0 atom:id/,
      /feed has 0 atom:updated/,
      /entry 1 has no atom:author/,
    );
    expect(message).to.match(/^not a valid Atom feed \(3\):/);
  });
});
