// The text of an export's batches (CSV with the cell rules, NDJSON and OCDS one item a line), and the batches pulled
// by the socket: never more than one asked for ahead of what was taken, so memory stays flat whatever the size.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import type { ListSource } from '../../../../indexContract/sourceFields.js';
import { csvText, exportChunks, ndjsonText } from '../../../../src/export/exportBody.js';
import type { SearchGateway } from '../../../../src/gateway/gateway.js';
import { EXPORT_FORMATS, parseExportQuery } from '../../../../src/params/export.js';
import type { ListItem } from '../../../../src/present/list.js';
import { exportBatchSize } from '../../../../src/queries/exportSearch.js';
import { records } from '../../../support/sampleOracle.js';

const item = (changes: Record<string, unknown>) =>
  ({ slug: 'a', project_name: 'A', ...changes }) as unknown as ListItem;

describe('export/exportBody: a batch as text', () => {
  it('writes CSV with a header on the first batch only, lists joined by ";", null empty, formulas quoted', () => {
    const items = [item({ project_name: '=SUM(A1)', risk_features: ['a', 'b'], country_code: null })];
    const columns = ['slug', 'project_name', 'risk_features', 'country_code'];
    expect(csvText(items, columns, true)).to.equal(
      "slug,project_name,risk_features,country_code\r\na,'=SUM(A1),a;b,\r\n",
    );
    expect(csvText(items, columns, false)).to.equal("a,'=SUM(A1),a;b,\r\n");
  });

  it('writes NDJSON, each item on its own line ending in a newline', () => {
    expect(ndjsonText([item({}), item({ slug: 'b' })])).to.equal(
      '{"slug":"a","project_name":"A"}\n{"slug":"b","project_name":"A"}\n',
    );
  });
});

describe('export/exportBody: batches pulled by the socket (exportChunks)', () => {
  const documents = records.filter((record) => record.published).map((record) => buildDocument(record));
  /** A full batch of the sample's documents, each hit with its sort value (so that a next batch is asked for). */
  const batchOf = (size: number, from: number): estypes.SearchResponse<ListSource> => ({
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: {
      hits: Array.from({ length: size }, (_, index) => ({
        _index: 'ppas',
        _id: String(from + index),
        _source: documents[(from + index) % documents.length] as unknown as ListSource,
        sort: [from + index],
      })),
    },
  });

  for (const format of EXPORT_FORMATS) {
    it(`${format}: asks for at most one batch ahead of what was taken, whatever the export's size`, async () => {
      const query = parseExportQuery(`format=${format}`);
      const size = exportBatchSize(query);
      let asked = 0;
      const search = {
        search: async () => batchOf(size, ++asked * size),
      } as unknown as SearchGateway;
      const chunks = exportChunks(
        query,
        search,
        { base: 'https://api.example.org', ocidPrefix: 'ocds-x' },
        {
          response: batchOf(size, 0),
        },
      );
      for (let taken = 1; taken <= 6; taken++) {
        const chunk = await chunks.next();
        expect(chunk.done).to.equal(false);
        // Lines of one batch: a header more for CSV's first.
        expect(chunk.value.split('\n').filter(Boolean)).to.have.length(
          size + (format === 'csv' && taken === 1 ? 1 : 0),
        );
        await new Promise((resolve) => setImmediate(resolve)); // a slow socket: time for anything eager to run
        expect(asked, `after ${taken} chunks taken`).to.equal(taken);
      }
      await chunks.return(undefined);
    });
  }

  it('ends after a short batch, asking nothing more', async () => {
    const query = parseExportQuery('format=ocds');
    let asked = 0;
    const search = { search: async () => (asked++, batchOf(3, 0)) } as unknown as SearchGateway;
    const target = { base: 'https://api.example.org', ocidPrefix: 'ocds-x' };
    const all: string[] = [];
    for await (const chunk of exportChunks(query, search, target, { response: batchOf(3, 0) }))
      all.push(chunk);
    expect(all).to.have.length(1);
    expect(asked).to.equal(0);
    expect(
      all[0]!
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { ocid: string }).ocid),
    ).to.have.length(3);
  });
});
