// The indexer's exit codes: one table, names and meanings read from it.
import { expect } from 'chai';
import { EXIT_CODE_TABLE, EXIT_CODES, exitCodeHelp, IndexerError } from '../../../indexer/exitCodes.js';

describe('indexer/exitCodes', () => {
  it('names each code once, as the README lists them', () => {
    expect(EXIT_CODES).to.deep.equal({
      ok: 0,
      invalidRecords: 1,
      usage: 2,
      failure: 3,
      locked: 4,
      guard: 5,
      storeUnreachable: 6,
      interrupted: 130,
      terminated: 143,
    });
    const codes = Object.values(EXIT_CODES);
    expect(new Set(codes).size).to.equal(codes.length);
  });

  it('prints a help line a row, and a failure of no kind of its own exits 3', () => {
    const help = exitCodeHelp().split('\n');
    expect(help[0]).to.equal('Exit codes:');
    expect(help).to.have.length(EXIT_CODE_TABLE.length + 1);
    expect(help.find((line) => line.trim().startsWith('130, 143'))).to.include('SIGINT, SIGTERM');
    expect(new IndexerError('x').exitCode).to.equal(3);
  });
});
