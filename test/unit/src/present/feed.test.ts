import { expect } from 'chai';
import { CHANGE_REASONS, changeTypeOf, type ChangeReason } from '../../../../indexContract/changeLog.js';
import type { ChangeEvent } from '../../../../src/present/changeEvent.js';
import {
  entryId,
  feedId,
  FEED_MEDIA_TYPE,
  presentFeed,
  type FeedContext,
} from '../../../../src/present/feed.js';
import { presentListItem } from '../../../../src/present/ppa.js';
import { validateAtom } from '../../../support/atom.js';
import { BASE, listSource } from '../../../support/sources.js';

const context: FeedContext = {
  selfUrl: `${BASE}/api/v1/ppas/feed?technology=solar_pv&country=SN`,
  explorerUrl: `${BASE}/explorer?technology=solar_pv&country=SN`,
  searchLabel: 'technology solar_pv, country SN',
  tagAuthority: 'api.example.org',
  tagDate: '2025-11-01',
  emptyUpdated: '2025-11-01T09:00:00Z',
  canonicalQuery: 'country=SN&technology=solar_pv',
};

function changeEvent(
  token: string,
  at: string,
  reason: ChangeReason = 'updated',
  itemChanges = {},
): ChangeEvent {
  const item = { ...presentListItem(listSource, BASE), active: true, ...itemChanges };
  return { token, type: changeTypeOf(reason), reason, slug: item.slug, at, item };
}

/** `count` events a second apart, newest first. */
function changeEvents(count: number): ChangeEvent[] {
  const newest = Date.UTC(2026, 0, 15, 12);
  return Array.from({ length: count }, (_, index) =>
    changeEvent(`AAAB${index}`, new Date(newest - index * 1000).toISOString().replace('.000Z', 'Z')),
  );
}

describe('api present: the Atom feed of changes', () => {
  it('is served as application/atom+xml in UTF-8', () => {
    expect(FEED_MEDIA_TYPE).to.equal('application/atom+xml; charset=utf-8');
  });

  it('titles say what happened, per reason; each entry has its reason as a category', async () => {
    const events = CHANGE_REASONS.map((reason, index) =>
      changeEvent(`t${index}`, `2026-01-0${9 - index}T10:00:00Z`, reason),
    );
    const feed = await validateAtom(presentFeed(events, context).xml);
    expect(feed.entries.map((entry) => entry.titleText)).to.deep.equal([
      'Published: Kahone Solar',
      'Updated: Kahone Solar',
      'Deactivated: Kahone Solar',
      'Reactivated: Kahone Solar',
      'Withdrawn: Kahone Solar',
      'Removed: Kahone Solar',
    ]);
    expect(feed.entries.map((entry) => entry.categories)).to.deep.equal(
      CHANGE_REASONS.map((reason) => [reason]),
    );
  });

  it('an entry: tag URI id, updated = at, the detail URL as its alternate link, a one-line summary', async () => {
    const event = changeEvent('AAAB7-x_y.z~', '2026-01-15T12:00:00.250Z');
    const [entry] = (await validateAtom(presentFeed([event], context).xml)).entries;
    expect(entry).to.deep.equal({
      id: 'tag:api.example.org,2025-11-01:ppa-change:AAAB7-x_y.z~',
      title: 'Updated: Kahone Solar',
      titleText: 'Updated: Kahone Solar',
      link: `${BASE}/api/v1/ppas/kahone-solar`,
      updated: '2026-01-15T12:00:00.250Z',
      summary: 'solar_pv · 60 MW · SN · Engie / Meridiam',
      categories: ['updated'],
    });
    expect(presentFeed([event], context).xml).to.include('<updated>2026-01-15T12:00:00.250Z</updated>');
  });

  it('the summary leaves out what is null or empty', async () => {
    const event = changeEvent('t', '2026-01-15T12:00:00Z', 'published', {
      country_code: null,
      developer: '',
      capacity_mw: 12.5,
    });
    const [entry] = (await validateAtom(presentFeed([event], context).xml)).entries;
    expect(entry!.summary).to.equal('solar_pv · 12.5 MW');
  });

  it('the feed: its title from the search, self and alternate links, a feed-level author', async () => {
    const feed = await validateAtom(presentFeed(changeEvents(2), context).xml);
    expect(feed.title).to.equal('PPA changes: technology solar_pv, country SN');
    expect(feed.self).to.equal(context.selfUrl);
    expect(feed.alternate).to.equal(context.explorerUrl);
    expect(feed.author).to.equal('PPA search API');
    expect(feed.id).to.equal('tag:api.example.org,2025-11-01:ppa-feed?country=SN&technology=solar_pv');
    const xml = presentFeed([], { ...context, searchLabel: null, canonicalQuery: '' }).xml;
    expect((await validateAtom(xml)).title).to.equal('PPA changes');
    expect((await validateAtom(xml)).id).to.equal('tag:api.example.org,2025-11-01:ppa-feed');
    expect(xml).to.include('<link rel="self" type="application/atom+xml" href=');
    expect(xml).to.include('<link rel="alternate" type="text/html" href=');
  });

  it('escapes public text (markup, &, quotes), drops characters XML 1.0 does not allow, keeps links IRIs', async () => {
    const name = `Kafue <script>alert("x")</script> & 'Gorge'\u0007\u0000\uD800\uFFFE line\r\nend`;
    const event = changeEvent('t', '2026-01-15T12:00:00Z', 'published', {
      project_name: name,
      developer: 'Smith & "Sons" <Ltd>\u001B',
      url: `${BASE}/api/v1/ppas/kafue?a=1&b="2"`,
    });
    const search = {
      ...context,
      searchLabel: `"kafue" & <b>`,
      selfUrl: `${BASE}/api/v1/ppas/feed?q="k"&country=SN`,
    };
    const { xml } = presentFeed([event], search);
    expect(xml).not.to.include('<script>');
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(xml).not.to.match(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE]/);
    expect(xml).to.include('Kafue &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;Gorge&apos;');
    const feed = await validateAtom(xml);
    expect(feed.entries[0]!.titleText).to.equal(
      `Published: Kafue <script>alert("x")</script> & 'Gorge' line\r\nend`,
    );
    expect(feed.entries[0]!.summary).to.equal('solar_pv · 60 MW · SN · Smith & "Sons" <Ltd>');
    expect(feed.entries[0]!.link).to.equal(`${BASE}/api/v1/ppas/kafue?a=1&b=%222%22`);
    expect(feed.titleText).to.equal('PPA changes: "kafue" & <b>');
    expect(feed.self).to.equal(`${BASE}/api/v1/ppas/feed?q=%22k%22&country=SN`);
  });

  it('ids are stable: the same input gives the same bytes, an entry id depends on its token alone', () => {
    const events = changeEvents(3);
    expect(presentFeed(events, context).xml).to.equal(presentFeed(changeEvents(3), context).xml);
    const moved = changeEvent('AAAB1', '2027-01-01T00:00:00Z', 'deleted', { project_name: 'Renamed' });
    expect(entryId(moved.token, context)).to.equal(entryId(events[1]!.token, context));
    expect(presentFeed([moved], context).xml).to.include(
      '<id>tag:api.example.org,2025-11-01:ppa-change:AAAB1</id>',
    );
    expect(entryId('AAAB1', { ...context, tagAuthority: 'API.Example.ORG' })).to.equal(
      'tag:api.example.org,2025-11-01:ppa-change:AAAB1',
    );
  });

  it('percent-encodes what tag URIs do not allow, in entry tokens and in the feed query', async () => {
    expect(entryId('a/b%c d:é', context)).to.equal(
      'tag:api.example.org,2025-11-01:ppa-change:a%2Fb%25c%20d%3A%C3%A9',
    );
    expect(entryId('a/b', context)).not.to.equal(entryId('a%2Fb', context));
    const query = { ...context, canonicalQuery: 'q=%22kafue%22+gorge&x=a b#c"%zz' };
    expect(feedId(query)).to.equal(
      'tag:api.example.org,2025-11-01:ppa-feed?q=%22kafue%22+gorge&x=a%20b%23c%22%25zz',
    );
    await validateAtom(presentFeed([changeEvent('a/b c', '2026-01-15T12:00:00Z')], query).xml);
  });

  it('refuses a tag authority that is not a host name, or a tag date that is not a day', () => {
    expect(() => presentFeed([], { ...context, tagAuthority: 'api.example.org:8080' })).to.throw(
      /tagAuthority/,
    );
    expect(() => presentFeed([], { ...context, tagDate: '2025-11-01T00:00:00Z' })).to.throw(/tagDate/);
  });

  it('an empty feed is valid, with emptyUpdated as its updated', async () => {
    const { xml, updated } = presentFeed([], context);
    expect(updated).to.equal('2025-11-01T09:00:00Z');
    expect(xml).to.include('<updated>2025-11-01T09:00:00Z</updated>');
    const feed = await validateAtom(xml);
    expect(feed.entries).to.deep.equal([]);
    expect(feed.updated).to.equal('2025-11-01T09:00:00.000Z');
  });

  it("the feed's updated is the newest event's at, compared as instants", () => {
    const events = [
      changeEvent('b', '2026-01-15T12:00:00.500Z'),
      changeEvent('a', '2026-01-15T12:00:00Z'),
      changeEvent('c', '2026-01-14T23:59:59.999Z'),
    ];
    const { xml, updated } = presentFeed(events, context);
    expect(updated).to.equal('2026-01-15T12:00:00.500Z');
    expect(xml.match(/<updated>[^<]*<\/updated>/)![0]).to.equal(
      '<updated>2026-01-15T12:00:00.500Z</updated>',
    );
    expect(presentFeed(changeEvents(3), context).updated).to.equal('2026-01-15T12:00:00Z');
  });

  it('50 entries: valid, all read, in the order given, rendered in well under 2 ms', async () => {
    const events = changeEvents(50);
    const feed = await validateAtom(presentFeed(events, context).xml);
    expect(feed.entries.map((entry) => entry.id)).to.deep.equal(
      events.map((event) => entryId(event.token, context)),
    );
    for (let run = 0; run < 20; run++) presentFeed(events, context);
    let best = Infinity;
    for (let batch = 0; batch < 5; batch++) {
      const start = process.hrtime.bigint();
      for (let run = 0; run < 20; run++) presentFeed(events, context);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6 / 20);
    }
    expect(best).to.be.below(2);
  });
});
