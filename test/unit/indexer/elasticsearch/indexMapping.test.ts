import { INDEX_CONTRACT_VERSION, RELEASE } from '../../../../indexContract/contract.js';
import { expect } from 'chai';
import { CONTENT_HASH_VERSION } from '../../../../indexContract/contentHash.js';
import {
  indexDefinition,
  LIVE_SETTINGS,
  replicasFor,
} from '../../../../indexer/elasticsearch/indexMapping.js';

describe('indexer/indexMapping', () => {
  it('replicas: none on one data node (never assignable), one from two data nodes', () => {
    expect(replicasFor(1)).to.equal(0);
    expect(replicasFor(2)).to.equal(1);
    expect(replicasFor(3)).to.equal(1);
    expect(replicasFor(12)).to.equal(1);
  });

  it('loads with no replicas, refresh off and an async translog; goes live with per-request durability', () => {
    const { settings } = indexDefinition({ built_at: '2026-11-25T00:00:00.000Z', records: 1 });
    expect(settings.index).to.include({ number_of_replicas: 0, refresh_interval: '-1' });
    expect(settings.index).to.have.nested.property('translog.durability', 'async');
    expect(LIVE_SETTINGS.translog.durability).to.equal('request');
  });

  it("records the index contract, the release and the content hash's version in every generation's _meta, beside the build's", () => {
    const { mappings } = indexDefinition({ built_at: '2026-11-25T00:00:00.000Z', records: 1 });
    expect(mappings._meta).to.deep.equal({
      built_at: '2026-11-25T00:00:00.000Z',
      records: 1,
      content_hash_version: CONTENT_HASH_VERSION,
      contract_version: INDEX_CONTRACT_VERSION,
      contract_compatible_from: 1,
      release: RELEASE,
    });
  });
});
