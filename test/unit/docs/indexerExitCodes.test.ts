// The indexer's exit codes are one table (indexer/exitCodes.ts): `--help` shows it row for row, and every code the
// indexer uses is in it. (docs/operations.md's copy is generated: test/unit/docs/generated.test.ts.)
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EXIT_CODE_TABLE, EXIT_CODES } from '../../../indexer/exitCodes.js';

const bin = fileURLToPath(new URL('../../../bin/ppa-indexer.js', import.meta.url));

describe('indexer exit codes: one table in the code and --help', () => {
  it('every exit code has its row, and the guard code names --max-removed', () => {
    const listed = EXIT_CODE_TABLE.flatMap((row) => row.code.split(', ').map(Number));
    expect(listed.sort((a, b) => a - b)).to.deep.equal(Object.values(EXIT_CODES).sort((a, b) => a - b));
    expect(EXIT_CODE_TABLE.find((row) => row.code === String(EXIT_CODES.guard))?.meaning).to.match(
      /^the --max-removed guard/,
    );
  });

  it('--help prints it', function () {
    this.timeout(30_000);
    const help = spawnSync(process.execPath, [bin, 'reindex', '--help'], { encoding: 'utf8' });
    expect(help.status, help.stderr).to.equal(0);
    for (const { code, meaning } of EXIT_CODE_TABLE) {
      expect(help.stdout.replace(/\s+/g, ' '), code).to.include(`${code} ${meaning}`);
    }
    expect(help.stdout).to.include('--log-format <format>');
  });
});
