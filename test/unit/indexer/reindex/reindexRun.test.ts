// reindex/reindexRun: what a reindex is asked (ReindexOptions), what it reports (ReindexSummary, the CLI's --json)
// and the one context its phases share. Checked through a run over the fake Elasticsearch: the summary has every
// documented field and no other, its figures agree with the source; progress comes as validate then load events,
// the load's total being the published records; the logger given reaches every phase, in the phases' order; and the
// silent logger a run uses without one says nothing.
import { expect } from 'chai';
import type { IndexerLogger } from '../../../../indexer/indexerLog.js';
import { reindex } from '../../../../indexer/reindex/reindex.js';
import {
  silentLogger,
  type ProgressEvent,
  type ReindexSummary,
} from '../../../../indexer/reindex/reindexRun.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ndjsonStream, ppaRecord } from '../../../support/ppaRecords.js';

const SUMMARY_FIELDS: (keyof ReindexSummary)[] = [
  'alias',
  'index',
  'previousIndex',
  'format',
  'read',
  'invalid',
  'unpublished',
  'published',
  'inactive',
  'indexed',
  'deletedIndices',
  'seconds',
  'docsPerSecond',
  'maxRssMb',
  'dryRun',
  'invalidRecords',
  'changes',
];

/** A logger that keeps each message with its level. */
function recordingLogger(): { logger: IndexerLogger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (fields: unknown, message?: string) =>
    void lines.push(`${level} ${typeof fields === 'string' ? fields : message}`);
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') } as IndexerLogger, lines };
}

describe('indexer/reindex/reindexRun', () => {
  it('reports every summary field, and only those, with figures that agree with the source', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, generationName('ppas', 1), ['a', 'b'], { live: true });
    const records = [
      ppaRecord('a'),
      ppaRecord('b'),
      ppaRecord('c', { published: false }),
      ppaRecord('d', { active: false }),
    ];
    const summary = await reindex({
      client: es.client,
      alias: 'ppas',
      source: ndjsonStream([...records, { slug: 'broken' }]),
      skipInvalid: true,
    });
    expect(Object.keys(summary).sort()).to.deep.equal([...SUMMARY_FIELDS].sort());
    expect(summary).to.deep.include({
      format: 'ndjson',
      read: 5,
      invalid: 1,
      unpublished: 1,
      published: 3,
      inactive: 1,
      indexed: 3,
      previousIndex: generationName('ppas', 1),
      changes: { added: 1, updated: 0, removed: 0, unchanged: 2 },
    });
    expect(summary.seconds).to.be.at.least(0);
    expect(summary.docsPerSecond).to.be.greaterThan(0);
    expect(summary.maxRssMb).to.be.greaterThan(0);
    expect(summary.invalidRecords.map((record) => record.line)).to.deep.equal([5]);
  });

  it('reports progress as validate events, then load events up to the published records', async () => {
    const events: ProgressEvent[] = [];
    const records = Array.from({ length: 12 }, (_, n) => ppaRecord(`p-${n}`));
    await reindex({
      client: fakeElasticsearch().client,
      alias: 'ppas',
      source: ndjsonStream(records),
      batchSize: 5,
      onProgress: (event) => events.push(event),
    });
    const phases = events.map((event) => event.phase);
    expect(phases.indexOf('load')).to.be.greaterThan(phases.lastIndexOf('validate'));
    const validated = events.filter((event) => event.phase === 'validate').at(-1)!;
    expect(validated).to.include({ records: 12 });
    expect(validated.bytes).to.equal(validated.totalBytes);
    const loads = events.filter(
      (event): event is Extract<ProgressEvent, { phase: 'load' }> => event.phase === 'load',
    );
    expect(loads.map((event) => event.total)).to.deep.equal([12, 12, 12]);
    expect(loads.at(-1)!.indexed).to.equal(12);
  });

  it('hands the logger given to every phase, which log in the phases’ order', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, generationName('ppas', 1), ['a'], { live: true });
    const { logger, lines } = recordingLogger();
    await reindex({ client: es.client, alias: 'ppas', source: ndjsonStream([ppaRecord('a')]), logger });
    expect(lines).to.deep.equal([
      'info source validated',
      'info loading new index',
      'info new index refreshed and flushed',
      'info parties built',
      'info new index replicated and green',
      'info changes against the live generation logged',
      'info alias swapped',
    ]);
  });

  it('says nothing through the silent logger a run uses without one', () => {
    const written: unknown[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: unknown) => written.push(chunk) > 0) as typeof process.stderr.write;
    try {
      expect(silentLogger.info({ a: 1 }, 'x')).to.equal(undefined);
      expect(silentLogger.warn('y')).to.equal(undefined);
      expect(silentLogger.error({ err: new Error('z') }, 'z')).to.equal(undefined);
    } finally {
      process.stderr.write = write;
    }
    expect(written).to.deep.equal([]);
  });
});
