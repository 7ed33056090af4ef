// The explorer copies nothing of the API's contract: the bounds, sorts and dimensions it needs come from the
// description the API serves from its declarations (src/pages/explorerDescription.ts). This fails when a script of
// public/ writes one by hand: a string that is a dimension's, a facet's, a filter's or a sort's name, or a number
// that is one of the described bounds (those under 10 aside: a count of the page's own, like its 8 suggestions, is
// not told from a bound; a line may say `// not an API bound` for a number of its own that equals one).
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explorerDescription, type ExplorerDescription } from '../../../src/pages/explorerDescription.js';

const PUBLIC = fileURLToPath(new URL('../../../public/', import.meta.url));
const EXEMPT = '// not an API bound';

/** The names the description gives: a script that spells one out copies the contract. */
function describedNames(description: ExplorerDescription): Set<string> {
  return new Set([
    ...description.dimensions.flatMap((dimension) => [
      dimension.group,
      ...(dimension.facet ? [dimension.facet] : []),
      ...dimension.parameters,
    ]),
    ...description.sorts,
    description.textSort,
    ...description.group.sorts.map((sort) => sort.name),
  ]);
}

/** The numbers the description gives (10 and over). */
function describedNumbers(description: ExplorerDescription): Set<number> {
  const numbers = [...Object.values(description.bounds), ...Object.values(description.group)];
  return new Set(numbers.filter((value): value is number => typeof value === 'number' && value >= 10));
}

/** What a script writes by hand of the contract, one line each ("<line>: <what>"). */
export function copiedContract(text: string, names: Set<string>, numbers: Set<number>): string[] {
  const found: string[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.includes(EXEMPT)) return;
    const line = raw.replace(/\/\/.*$/, '');
    for (const [, literal] of line.matchAll(/'([^'\\]*)'|"([^"\\]*)"|`([^`$\\]*)`/g)) {
      if (literal !== undefined && names.has(literal)) found.push(`${index + 1}: '${literal}'`);
    }
    for (const [, key] of line.matchAll(/^\s*([a-z_]+)\s*:/g)) {
      if (key !== undefined && names.has(key)) found.push(`${index + 1}: ${key}:`);
    }
    const code = line.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '');
    for (const [number] of code.matchAll(/(?<![\w.#])\d[\d_]*(?:\.\d+)?(?![\w])/g)) {
      if (numbers.has(Number(number.replaceAll('_', '')))) found.push(`${index + 1}: ${number}`);
    }
  });
  return found;
}

describe('public/: the explorer copies nothing of the API contract', () => {
  const description = explorerDescription();
  const names = describedNames(description);
  const numbers = describedNumbers(description);

  it('flags a dimension, a sort or a bound written by hand', () => {
    const example = [
      "const FACETS = ['technology', 'risk_features'];",
      'const MAX_PAGE = 10_000 / PER_PAGE;',
      "if (sort === 'capacity_desc') limit = 200;",
      'const MEASURES = {',
      '  ppas_desc: 1,',
      '};',
      "const fine = DESCRIPTION.sorts; // 'recent' in a comment is no copy",
      `setTimeout(close, 100); ${EXEMPT}`,
    ].join('\n');
    expect(copiedContract(example, names, numbers)).to.deep.equal([
      "1: 'technology'",
      "1: 'risk_features'",
      '2: 10_000',
      "3: 'capacity_desc'",
      '3: 200',
      '5: ppas_desc:',
    ]);
  });

  it('keeps every file of public/ under 300 lines (the explorer in modules, one concern each)', () => {
    const long = readdirSync(PUBLIC)
      .map((name) => ({ name, lines: readFileSync(join(PUBLIC, name), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300);
    expect(long).to.deep.equal([]);
  });

  it('finds none in the scripts of public/', () => {
    const found = readdirSync(PUBLIC)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) =>
        copiedContract(readFileSync(join(PUBLIC, name), 'utf8'), names, numbers).map(
          (line) => `${name}:${line}`,
        ),
      );
    expect(found).to.deep.equal([]);
  });
});
