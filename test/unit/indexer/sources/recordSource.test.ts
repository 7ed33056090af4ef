// sources/recordSource: what a reindex reads, as an interface. Every kind of source the unit tests use keeps its
// promises: a file (NDJSON and a JSON array, fileSource.ts) and the in-memory fake the reindex tests read
// (test/support/fakeRecordSource.ts): each pass gives the same items in the same order, validation reports the
// same counts as a pass read by hand, progress is reported as it reads, an abort stops a pass, and a change between
// passes is told by assertUnchanged.
import { expect } from 'chai';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceChangedError } from '../../../../indexer/errors.js';
import { FileSource } from '../../../../indexer/sources/fileSource.js';
import type { RecordSource } from '../../../../indexer/sources/recordSource.js';
import type { SourceItem } from '../../../../indexer/sources/source.js';
import { FakeRecordSource } from '../../../support/fakeRecordSource.js';
import { ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';

const records = [ppaRecord('a'), ppaRecord('b', { published: false }), { slug: 'broken' }, ppaRecord('c')];

async function pass(
  source: RecordSource,
  options: Parameters<RecordSource['items']>[0] = {},
): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.items(options)) items.push(item);
  return items;
}

interface Kind {
  name: string;
  open(): Promise<{ source: RecordSource; change(): Promise<void> }>;
}

describe('indexer/sources/recordSource: the promises every source keeps', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'indexer-record-source-'))));
  after(async () => rm(dir, { recursive: true, force: true }));

  const file =
    (name: string, text: string): Kind['open'] =>
    async () => {
      const path = join(dir, name);
      await writeFile(path, text);
      const source = await FileSource.open(path);
      return {
        source,
        change: async () => {
          await writeFile(path, `${text} `);
          await utimes(path, new Date(), new Date(Date.now() + 5000));
        },
      };
    };
  const kinds: Kind[] = [
    { name: 'an NDJSON file', open: file('records.ndjson', ndjsonText(records)) },
    { name: 'a JSON array file', open: file('records.json', JSON.stringify(records)) },
    {
      name: 'the in-memory fake',
      open: async () => {
        const source = new FakeRecordSource(records);
        return { source, change: async () => void (source.changeBetweenPasses = true) };
      },
    },
  ];

  for (const kind of kinds) {
    describe(kind.name, () => {
      it('gives the same items in the same order on every pass, reporting progress as it reads', async () => {
        const { source } = await kind.open();
        let done = 0;
        const first = await pass(source, { onAmount: (amount) => (done = amount) });
        expect(
          first.map((item) => ('value' in item ? (item.value as { slug: string }).slug : null)),
        ).to.deep.equal(['a', 'b', 'broken', 'c']);
        expect(await pass(source)).to.deep.equal(first);
        expect(done).to.be.greaterThan(0).and.at.most(source.total);
        await source.close();
      });

      it('validates as a pass read by hand would count it', async () => {
        const { source } = await kind.open();
        let checked = 0;
        const report = await source.validate({ onRecord: (read) => (checked = read) });
        expect(report).to.include({ read: 4, valid: 3, invalid: 1, published: 2, unpublished: 1 });
        expect(checked).to.equal(4);
        const [invalidLine] = report.invalidLines;
        const items = await pass(source);
        expect((items.find((item) => item.line === invalidLine) as { value: unknown }).value).to.deep.equal({
          slug: 'broken',
        });
        await source.close();
      });

      it('stops a pass when its signal is aborted', async () => {
        const { source } = await kind.open();
        const controller = new AbortController();
        controller.abort(new Error('stop'));
        let error: unknown;
        await pass(source, { signal: controller.signal }).catch((caught: unknown) => (error = caught));
        expect(error).to.be.instanceOf(Error);
        await source.close();
      });

      it('tells a change between passes, and none when there was none', async () => {
        const { source, change } = await kind.open();
        await source.assertUnchanged();
        await change();
        let error: unknown;
        await source.assertUnchanged().catch((caught: unknown) => (error = caught));
        expect(error).to.be.instanceOf(SourceChangedError);
        expect(source.meta()).to.deep.equal({});
        expect(source.catchUpFrom).to.equal(undefined);
        await source.close();
      });
    });
  }
});
