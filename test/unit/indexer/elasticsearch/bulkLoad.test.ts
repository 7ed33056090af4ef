// bulkLoad against a fake transport: the NDJSON body it sends, batching by count and bytes, the filtered
// response, 429 retries of only the refused documents, and the id named when a document is refused.
import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { bulkLoad, type LoadableDocument } from '../../../../indexer/elasticsearch/bulkLoad.js';
import { BulkRejectedError } from '../../../../indexer/errors.js';

interface SentRequest {
  path: string;
  querystring: Record<string, unknown>;
  lines: string[];
}

type Answer = (request: SentRequest) => { errors: boolean; items?: object[] };

function fakeClient(answer: Answer): { client: Client; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const transport = {
    request: async (params: { path: string; querystring: Record<string, unknown>; bulkBody: Buffer }) => {
      expect(Buffer.isBuffer(params.bulkBody)).to.equal(true);
      const text = params.bulkBody.toString('utf8');
      expect(text.endsWith('\n')).to.equal(true);
      const request = {
        path: params.path,
        querystring: params.querystring,
        lines: text.slice(0, -1).split('\n'),
      };
      sent.push(request);
      return answer(request);
    },
  };
  return { client: { transport } as unknown as Client, sent };
}

async function* documents(count: number, text = 'x'): AsyncGenerator<LoadableDocument> {
  for (let i = 0; i < count; i++) yield { id: `doc-${i}`, body: { n: i, text } };
}

const created = (request: SentRequest) => ({
  errors: false,
  items: Array.from({ length: request.lines.length / 2 }, () => ({ create: { status: 201 } })),
});

describe('indexer: bulkLoad', () => {
  it('sends create actions and sources as UTF-8 NDJSON, in batches, with a filtered response', async () => {
    const { client, sent } = fakeClient(created);
    const indexed = await bulkLoad(client, 'idx-1', documents(25, 'Côte d’Ivoire ✓'), { batchSize: 10 });
    expect(indexed).to.equal(25);
    expect(sent.map((request) => request.lines.length / 2)).to.deep.equal([10, 10, 5]);
    expect(sent[0]!.path).to.equal('/idx-1/_bulk');
    expect(sent[0]!.querystring).to.include({ refresh: 'false' });
    expect(String(sent[0]!.querystring.filter_path)).to.match(/^errors,items\.\*\.status/);
    expect(JSON.parse(sent[0]!.lines[0]!)).to.deep.equal({ create: { _id: 'doc-0' } });
    expect(JSON.parse(sent[2]!.lines[9]!)).to.deep.equal({ n: 24, text: 'Côte d’Ivoire ✓' });
  });

  it('starts a new batch once the body reaches maxBatchBytes', async () => {
    const { client, sent } = fakeClient(created);
    await bulkLoad(client, 'idx', documents(6, 'y'.repeat(3000)), { batchSize: 1000, maxBatchBytes: 7000 });
    expect(sent.map((request) => request.lines.length / 2)).to.deep.equal([3, 3]);
  });

  it('retries only the documents refused with 429, then succeeds', async () => {
    let attempt = 0;
    const { client, sent } = fakeClient((request) => {
      attempt++;
      if (attempt > 1) return created(request);
      return {
        errors: true,
        items: Array.from({ length: request.lines.length / 2 }, (_, position) =>
          position === 1 || position === 3
            ? {
                create: {
                  status: 429,
                  error: { type: 'es_rejected_execution_exception', reason: 'queue full' },
                },
              }
            : { create: { status: 201 } },
        ),
      };
    });
    const indexed = await bulkLoad(client, 'idx', documents(5), { retryBaseMs: 1 });
    expect(indexed).to.equal(5);
    expect(sent).to.have.length(2);
    expect(sent[1]!.lines.map((line) => JSON.parse(line) as object)).to.deep.equal([
      { create: { _id: 'doc-1' } },
      { n: 1, text: 'x' },
      { create: { _id: 'doc-3' } },
      { n: 3, text: 'x' },
    ]);
  });

  it('names the refused document, also among retried ones', async () => {
    let attempt = 0;
    const { client } = fakeClient((request) => {
      attempt++;
      const count = request.lines.length / 2;
      return {
        errors: true,
        items: Array.from({ length: count }, (_, position) => {
          if (attempt === 1 && position >= 2) return { create: { status: 429, error: { type: 'rejected' } } };
          if (attempt === 2 && position === 1)
            return { create: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad' } } };
          return { create: { status: 201 } };
        }),
      };
    });
    const error = await bulkLoad(client, 'idx', documents(4), { retryBaseMs: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(BulkRejectedError);
    expect((error as Error).message).to.equal(
      'Elasticsearch refused document doc-3 (status 400): mapper_parsing_exception: bad',
    );
  });
});
