import { expect } from 'chai';
import { UsageError } from '../../../../indexer/errors.js';
import { quotedRelation, rowProblems } from '../../../../indexer/sources/postgresRelation.js';
import { describeSkipped } from '../../../../indexer/sync/syncRun.js';

describe('indexer/postgresRelation', () => {
  it('quotes NAME and SCHEMA.NAME; refuses anything else as a usage error', () => {
    expect(quotedRelation('ppa_index_records')).to.equal('"ppa_index_records"');
    expect(quotedRelation('publishing.Ppa_Records')).to.equal('"publishing"."Ppa_Records"');
    for (const bad of ['', 'a.b.c', 'x; drop table ppas', 'a"b', '1abc', 'a b']) {
      expect(() => quotedRelation(bad), bad).to.throw(UsageError, /--relation must be NAME or SCHEMA.NAME/);
    }
  });

  it("a row whose slug column differs from its record's slug is a problem of field slug", () => {
    expect(rowProblems('a', { slug: 'a' })).to.deep.equal([]);
    expect(rowProblems('a', { slug: 'b' })).to.deep.equal([
      { field: 'slug', message: `differs from the relation's slug column ("a")` },
    ]);
    // A record without a slug is the schema's problem (slug is required), not reported twice.
    expect(rowProblems('a', {})).to.deep.equal([]);
  });

  it('describes a skipped record by slug and field, terminal-safe', () => {
    expect(describeSkipped('kahone-solar', [{ field: 'capacity_mw', message: 'must be >= 0' }])).to.equal(
      'slug "kahone-solar": capacity_mw must be >= 0',
    );
    expect(describeSkipped('x', [{ field: 'project_name', message: 'bad \u001b[31m' }])).to.not.include(
      '\u001b',
    );
  });
});
