// The length rule of eslint.config.js holds: a function over 80 lines is an ESLint error in the programs and their
// shared folders, over 120 in bench/ and tools/, and tests are exempt; blank and comment lines are not counted.
// Linted as text placed in the repository's own files, so the rule is the one `npm run lint` applies.
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** A function of `statements` lines of code between its first and last line, each statement after `comments` comment lines. */
function functionOf(statements: number, { comments = 0, blanks = 0 } = {}): string {
  const body = Array.from({ length: statements }, (_, line) => [
    ...Array.from({ length: comments }, () => '  // why this line is here'),
    ...Array.from({ length: blanks }, () => ''),
    `  total += ${line};`,
  ]).flat();
  return ['export function long(): number {', '  let total = 0;', ...body, '  return total;', '}', ''].join(
    '\n',
  );
}

/** The length rule's messages for `code` linted as if it were the file `path`. */
async function lengthErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'max-lines-per-function')
    .map((message) => message.message);
}

describe('architecture: short functions', function () {
  this.timeout(60_000);

  // (the function's own lines: its first, `let total`, the statements, `return` and its last)
  it('allows 80 lines in the programs and their shared folders, not 81', async () => {
    for (const path of ['src/x.ts', 'indexer/x.ts', 'indexContract/x.ts', 'settings/x.ts']) {
      expect(await lengthErrors(path, functionOf(76)), path).to.deep.equal([]);
      expect(await lengthErrors(path, functionOf(77)), path).to.have.length(1);
    }
  });

  it('allows 120 lines in bench/ and tools/, not 121', async () => {
    for (const path of ['bench/x.ts', 'tools/x.ts']) {
      expect(await lengthErrors(path, functionOf(116)), path).to.deep.equal([]);
      expect(await lengthErrors(path, functionOf(117)), path).to.have.length(1);
    }
  });

  it('counts neither comments nor blank lines', async () => {
    expect(await lengthErrors('src/x.ts', functionOf(76, { comments: 2, blanks: 1 }))).to.deep.equal([]);
  });

  it('leaves the tests alone', async () => {
    expect(await lengthErrors('test/unit/x.test.ts', functionOf(300))).to.deep.equal([]);
  });
});
