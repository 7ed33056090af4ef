// commands/environment: the variables the indexer reads, as --help and docs/operations.md list them (the defaults
// against what the code reads are checked in help.test.ts). Checked here: the order; each ES_* variable from the
// shared declaration, with the indexer's own timeout and the indexer's words where the API's would not fit, the
// others as declared; no default where the declaration has none; the change log's retention and the log level.
import { expect } from 'chai';
import { indexerVariables } from '../../../../indexer/commands/environment.js';
import { DEFAULT_LOG_LEVEL } from '../../../../indexer/indexerLog.js';
import { CHANGE_LOG_VARIABLES_SPEC } from '../../../../settings/changeLog.js';
import { ES_VARIABLES_SPEC } from '../../../../settings/elasticsearch.js';

describe('indexer/commands/environment', () => {
  const variables = indexerVariables();
  const byName = new Map(variables.map((variable) => [variable.name, variable]));

  it('lists DATABASE_URL, every ES_* variable in its declared order, the retention and the log level', () => {
    expect(variables.map((variable) => variable.name)).to.deep.equal([
      'DATABASE_URL',
      ...Object.keys(ES_VARIABLES_SPEC),
      'CHANGES_RETENTION_DAYS',
      'LOG_LEVEL',
    ]);
  });

  it('says what an ES_* variable means to the indexer where the API’s words would not fit', () => {
    expect(byName.get('ES_INDEX')!.meaning).to.equal(
      'the alias the indexer builds and swaps; --alias overrides it',
    );
    expect(byName.get('ES_REQUEST_TIMEOUT_MS')).to.deep.equal({
      name: 'ES_REQUEST_TIMEOUT_MS',
      default: '60000',
      meaning: 'timeout of one request to Elasticsearch, in milliseconds',
    });
    for (const [name, spec] of Object.entries(ES_VARIABLES_SPEC)) {
      if (['ES_URL', 'ES_INDEX', 'ES_REQUEST_TIMEOUT_MS'].includes(name)) continue;
      expect(byName.get(name)!.meaning, name).to.equal(spec.meaning);
      expect(byName.get(name)!.default, name).to.equal('default' in spec ? spec.default : undefined);
    }
  });

  it('gives no default where there is none, and the retention’s and log level’s from their declarations', () => {
    expect(byName.get('DATABASE_URL')).to.not.have.property('default');
    expect(byName.get('ES_API_KEY')).to.not.have.property('default');
    const retention = byName.get('CHANGES_RETENTION_DAYS')!;
    expect(retention.default).to.equal(CHANGE_LOG_VARIABLES_SPEC.CHANGES_RETENTION_DAYS.default);
    expect(retention.meaning).to.match(/, in days, decimals allowed$/);
    expect(byName.get('LOG_LEVEL')!.default).to.equal(DEFAULT_LOG_LEVEL);
  });
});
