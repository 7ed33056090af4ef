// reindex/checkIndex: the new index checked before it may go live, over the fake Elasticsearch and a record source in
// memory. verifyPhase: the source proved unchanged before anything else, live settings back, a refresh, two flushes
// (the second forced), then a count that must equal both what was sent and the published records. goLivePhase: the
// replicas the cluster's data nodes can hold (or --replicas), and green within the bound, or a failure naming why.
import { expect } from 'chai';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { indexDefinition } from '../../../../indexer/elasticsearch/indexMapping.js';
import { SourceChangedError } from '../../../../indexer/errors.js';
import { goLivePhase, verifyPhase } from '../../../../indexer/reindex/checkIndex.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { generationBuild } from '../../../support/generationBuilds.js';
import { generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const NEW = generationName('ppas', 2);
const records = ['a', 'b', 'c'].map((slug) => ppaRecord(slug));

/** The new index as the load leaves it: loading settings, documents written but not refreshed. */
async function loaded(es: FakeElasticsearch, count = records.length): Promise<void> {
  await es.client.indices.create({
    index: NEW,
    ...indexDefinition({ built_at: 'x', records: records.length }),
  });
  await es.client.bulk({
    operations: records
      .slice(0, count)
      .flatMap((record) => [{ create: { _index: NEW, _id: record.slug } }, buildDocument(record)]),
  });
}

describe('indexer/reindex/checkIndex', () => {
  const locks: { release(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const lock of locks.splice(0)) await lock.release();
  });
  const build = async (es: FakeElasticsearch, options = {}) => {
    const made = await generationBuild(es, { index: NEW, records, options });
    locks.push(made.lock);
    return made;
  };

  it('verifies: live settings, refreshed, flushed twice (then forced), and every published record counted', async () => {
    const es = fakeElasticsearch();
    await loaded(es);
    const run = await build(es);
    const before = es.calls.length;
    await verifyPhase(run, 3);
    const steps = es.calls
      .slice(before)
      .map((call) => `${call.path.slice(NEW.length + 2)} ${call.querystring}`);
    expect(steps).to.deep.equal([
      '_settings ',
      '_refresh ',
      '_flush wait_if_ongoing=true',
      '_flush wait_if_ongoing=true&force=true',
      '_count ',
    ]);
    expect(es.indices.get(NEW)!.settings).to.include({
      refresh_interval: '1s',
      'translog.durability': 'request',
    });
  });

  it('fails when the index holds another count, or when fewer documents were sent, naming both', async () => {
    const es = fakeElasticsearch();
    await loaded(es, 2);
    const run = await build(es);
    expect(String(await rejectionOf(verifyPhase(run, 3)))).to.include(
      `index check failed: ${NEW} holds 2 documents (3 sent), expected 3 published records`,
    );
    const whole = fakeElasticsearch();
    await loaded(whole);
    expect(String(await rejectionOf(verifyPhase(await build(whole), 2)))).to.include(
      'holds 3 documents (2 sent)',
    );
  });

  it('asks nothing of Elasticsearch when the source changed since it was validated', async () => {
    const es = fakeElasticsearch();
    await loaded(es);
    const run = await build(es);
    run.source.changeBetweenPasses = true;
    const before = es.calls.length;
    expect(await rejectionOf(verifyPhase(run, 3))).to.be.instanceOf(SourceChangedError);
    expect(es.calls.length).to.equal(before);
  });

  it('adds no replica on one data node, one on more, --replicas when given, and waits for green', async () => {
    const single = fakeElasticsearch();
    await loaded(single);
    await goLivePhase(await build(single));
    expect(single.requests().filter((request) => request.endsWith('/_settings'))).to.deep.equal([]);
    const wait = single.calls.filter((call) => call.querystring.includes('wait_for_status'));
    expect(wait.map((call) => call.querystring)).to.deep.equal(['wait_for_status=green&timeout=300s']);
    expect(wait[0]!.timeout).to.equal(330_000);

    const three = fakeElasticsearch();
    three.health = { ...three.health, number_of_data_nodes: 3 };
    await loaded(three);
    await goLivePhase(await build(three, { greenTimeoutMs: 1500 }));
    expect(three.indices.get(NEW)!.settings).to.include({ number_of_replicas: 1 });
    expect(three.calls.at(-1)!.querystring).to.equal('wait_for_status=green&timeout=2s');

    const asked = fakeElasticsearch();
    await loaded(asked);
    await goLivePhase(await build(asked, { replicas: 2 }));
    expect(asked.indices.get(NEW)!.settings).to.include({ number_of_replicas: 2 });
    expect(asked.calls.filter((call) => call.path.startsWith('/_cluster/health'))).to.have.length(1);
  });

  it('fails when the index is not green within the bound, saying what the cluster reported', async () => {
    const es = fakeElasticsearch();
    es.health = { status: 'yellow', number_of_data_nodes: 2, unassigned_shards: 1, initializing_shards: 2 };
    await loaded(es);
    expect(String(await rejectionOf(goLivePhase(await build(es, { greenTimeoutMs: 10_000 }))))).to.include(
      `index check failed: ${NEW} did not turn green within 10s with 1 replica(s) (status yellow, ` +
        '1 unassigned and 2 initializing shard(s), 2 data node(s))',
    );
  });
});
