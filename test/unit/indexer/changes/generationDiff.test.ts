import { expect } from 'chai';
import { BuiltEntries } from '../../../../indexer/changes/builtEntries.js';
import { diffServed, upsertReason } from '../../../../indexer/changes/generationDiff.js';
import type { ServedEntry } from '../../../../indexer/elasticsearch/servedEntries.js';
import { loggedChanges } from '../../../../indexer/changes/loggedWrites.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import type { IndexDocument } from '../../../../indexContract/document.js';
import type { PpaRecord } from '../../../../indexContract/record.js';
import { compareBytes } from '../../../../indexer/slugOrder.js';

const entry = (slug: string, hash: string | null): ServedEntry => ({ slug, hash });

describe('indexer changes: comparing two served sets', () => {
  it('counts and names what was added, updated (by hash), removed and left alone, in byte order', async () => {
    const before = inByteOrder([entry('b', 'h1'), entry('a', 'h0'), entry('d', 'h3'), entry('é', 'h5')]);
    const after = inByteOrder([entry('a', 'h0'), entry('c', 'h2'), entry('d', 'h3x'), entry('é', null)]);
    const diff = await diffServed(before, after, new Set(['b']));
    expect(diff).to.include({ added: 1, updated: 2, removed: 1, unchanged: 1, before: 4, after: 4 });
    expect(diff.entries).to.deep.equal([
      { slug: 'b', kind: 'removed', reason: 'unpublished' },
      { slug: 'c', kind: 'added', reason: 'published' },
      { slug: 'd', kind: 'updated', reason: 'updated' },
      // No hash on one side (an older release's document): counted as changed.
      { slug: 'é', kind: 'updated', reason: 'updated' },
    ]);
    const gone = await diffServed(inByteOrder([entry('x', 'h')]), inByteOrder([]));
    expect(gone.entries).to.deep.equal([{ slug: 'x', kind: 'removed', reason: 'deleted' }]);
  });

  it('gives back what a reindex noted, in byte order of the slug, a slug before the slugs it starts', async () => {
    const slugs = ['a-b-c', 'ab', 'a', 'a-b', 'a0', 'z-9', '0-a', 'a-b-c-d', 'b'];
    const built = new BuiltEntries();
    for (const slug of slugs) built.add(slug, `h-${slug}_x`);
    expect(built.size).to.equal(slugs.length);
    const entries = await all(built.inByteOrder());
    expect(entries.map((e) => e.slug)).to.deep.equal([...slugs].sort(compareBytes));
    for (const { slug, hash } of entries) expect(hash).to.equal(`h-${slug}_x`);
  });

  it('sorts slugs outside ASCII by their UTF-8 bytes too', async () => {
    const slugs = ['é', 'z', 'ﬁ', 'e', '😀', 'e-é'];
    const built = new BuiltEntries();
    for (const slug of slugs) built.add(slug, 'h');
    const order = (await all(built.inByteOrder())).map((e) => e.slug);
    expect(order).to.deep.equal([...slugs].sort(compareBytes));
    expect(order).to.not.deep.equal([...slugs].sort());
  });

  it('makes the same diff from noted entries as from the index read in order', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const slugOf = (i: number) => `plant-${i.toString(36)}${i % 3 === 0 ? '-hydro' : ''}`;
    const before: ServedEntry[] = [];
    const built = new BuiltEntries();
    const after: ServedEntry[] = [];
    for (let i = 0; i < 2000; i++) {
      const roll = random();
      if (roll > 0.1) before.push(entry(slugOf(i), `h${i}`));
      if (roll < 0.05 || roll > 0.9) continue; // only before, or in neither
      const hash = roll > 0.8 ? `h${i}x` : `h${i}`;
      after.push(entry(slugOf(i), hash));
    }
    // The load notes documents in source order, not in slug order.
    for (const { slug, hash } of [...after].sort(() => random() - 0.5)) built.add(slug, hash!);
    const fromIndex = await diffServed(inByteOrder([...before]), inByteOrder([...after]), new Set());
    const fromBuilt = await diffServed(inByteOrder([...before]), built.inByteOrder(), new Set());
    expect(fromBuilt).to.deep.equal(fromIndex);
    expect(fromIndex.added + fromIndex.updated + fromIndex.removed).to.be.greaterThan(100);
  });

  it('names an upsert by what a client saw before', () => {
    expect(upsertReason(undefined, { active: true })).to.equal('published');
    expect(upsertReason({ active: true }, { active: false })).to.equal('deactivated');
    expect(upsertReason({ active: false }, { active: true })).to.equal('reactivated');
    expect(upsertReason({ active: true }, { active: true })).to.equal('updated');
  });
});

describe('indexer changes: what a sync batch logs', () => {
  const record = {
    slug: 'kahone-solar',
    reference_code: 'SN-1',
    project_name: 'Kahone Solar',
    developer: 'Engie',
    location: 'Kaolack',
    country_code: 'SN',
    technology: 'solar_pv',
    tariff: 'energy_only',
    capacity_mw: 60,
    published: true,
    active: true,
    updated_at: '2024-06-02T08:30:00Z',
  } as unknown as PpaRecord;
  const before = buildDocument(record);

  it('logs a change a client sees, not a rewrite of the same content, and no delete of nothing', () => {
    const same = buildDocument({ ...record });
    const bigger = buildDocument({ ...record, capacity_mw: 61 });
    const previous = new Map([[record.slug, before]]);
    expect(
      loggedChanges([{ kind: 'write', id: record.slug, document: same }], previous, () => 'deleted'),
    ).to.deep.equal([]);
    expect(
      loggedChanges([{ kind: 'write', id: record.slug, document: bigger }], previous, () => 'deleted'),
    ).to.deep.equal([{ reason: 'updated', document: bigger }]);
    expect(loggedChanges([{ kind: 'delete', id: record.slug }], previous, () => 'unpublished')).to.deep.equal(
      [{ reason: 'unpublished', document: before }],
    );
    expect(loggedChanges([{ kind: 'delete', id: 'unknown' }], previous, () => 'deleted')).to.deep.equal([]);
    expect(
      loggedChanges([{ kind: 'write', id: 'new', document: bigger }], new Map(), () => 'deleted')[0]?.reason,
    ).to.equal('published');
  });

  it("hashes the document before from its served fields: an older release's, without a hash, logs no rewrite", () => {
    const { content_hash: _stored, ...older } = before;
    const reordered = { ...older, fiscal: Object.fromEntries(Object.entries(older.fiscal).reverse()) };
    const previous = new Map([[record.slug, reordered as IndexDocument]]);
    const same = buildDocument({ ...record });
    const bigger = buildDocument({ ...record, capacity_mw: 61 });
    expect(
      loggedChanges([{ kind: 'write', id: record.slug, document: same }], previous, () => 'deleted'),
    ).to.deep.equal([]);
    expect(
      loggedChanges([{ kind: 'write', id: record.slug, document: bigger }], previous, () => 'deleted'),
    ).to.deep.equal([{ reason: 'updated', document: bigger }]);
  });

  it('hashes only what is served: the same record from another key order has the same hash', () => {
    const reordered = Object.fromEntries(Object.entries(record).reverse()) as unknown as PpaRecord;
    expect(buildDocument(reordered).content_hash).to.equal(before.content_hash);
    expect(buildDocument({ ...record, developer: 'Meridiam' }).content_hash).to.not.equal(
      before.content_hash,
    );
  });
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

/** A side of a comparison held in memory, in byte order of the slug. */
async function* inByteOrder(entries: ServedEntry[]): AsyncGenerator<ServedEntry> {
  entries.sort((a, b) => compareBytes(a.slug, b.slug));
  yield* entries;
}
