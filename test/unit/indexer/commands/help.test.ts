// --help's environment section is made from the declarations the indexer reads its defaults from: each variable
// named, with the default the code actually uses when the variable is unset.
import { expect } from 'chai';
import { indexerVariables } from '../../../../indexer/commands/environment.js';
import { readIndexerEsSettings } from '../../../../indexer/elasticsearch/esClient.js';
import { AFTER_OPTIONS_HELP, environmentHelp } from '../../../../indexer/commands/help.js';
import { createIndexerLogger } from '../../../../indexer/indexerLog.js';
import { readChangeLogSettings } from '../../../../settings/changeLog.js';
import { ES_VARIABLES_SPEC } from '../../../../settings/elasticsearch.js';

/** The environment section's lines by variable name: its default ("(default …)" at the end), if any. */
function helpDefaults(): Map<string, string | undefined> {
  const lines = environmentHelp().split('\n');
  expect(lines[0]).to.equal('Environment:');
  return new Map(
    lines.slice(1).map((line) => {
      const [, name, fallback] = /^ {2}([A-Z_]+) +.*?(?: \(default (\S+)\))?$/.exec(line) ?? [];
      expect(name, line).to.be.a('string');
      return [name!, fallback];
    }),
  );
}

describe('indexer --help: the environment, from the declarations', () => {
  it('names each variable with its declared default, and no other', () => {
    const named = helpDefaults();
    const declared = indexerVariables();
    expect([...named.keys()]).to.deep.equal(declared.map((variable) => variable.name));
    for (const variable of declared)
      expect(named.get(variable.name), variable.name).to.equal(variable.default);
  });

  it('the defaults shown are the ones the indexer reads when the variables are unset', () => {
    const named = helpDefaults();
    const es = readIndexerEsSettings({});
    expect(named.get('ES_REQUEST_TIMEOUT_MS')).to.equal(String(es.requestTimeoutMs));
    expect(named.get('ES_INDEX')).to.equal(es.alias);
    expect(named.get('ES_URL')).to.equal(es.nodes.join(','));
    expect(named.get('CHANGES_RETENTION_DAYS')).to.equal(String(readChangeLogSettings({}).retentionDays));
    const saved = process.env.LOG_LEVEL;
    delete process.env.LOG_LEVEL;
    try {
      const logger = createIndexerLogger('text', undefined, { write: () => true });
      expect(named.get('LOG_LEVEL')).to.equal(logger.level);
    } finally {
      if (saved !== undefined) process.env.LOG_LEVEL = saved;
    }
  });

  it('lists every ES_* variable, and DATABASE_URL with no default', () => {
    const named = helpDefaults();
    for (const name of Object.keys(ES_VARIABLES_SPEC)) expect(named.has(name), name).to.equal(true);
    expect(named.has('DATABASE_URL')).to.equal(true);
    expect(named.get('DATABASE_URL')).to.equal(undefined);
  });

  it('the indexer’s own timeout, not the API’s, is the one shown', () => {
    expect(helpDefaults().get('ES_REQUEST_TIMEOUT_MS')).to.not.equal(
      ES_VARIABLES_SPEC.ES_REQUEST_TIMEOUT_MS.default,
    );
  });

  it('is the end of what --help prints after the options', () => {
    expect(AFTER_OPTIONS_HELP.endsWith(`\n${environmentHelp()}`)).to.equal(true);
    expect(AFTER_OPTIONS_HELP).to.include('Exit codes:');
  });
});
