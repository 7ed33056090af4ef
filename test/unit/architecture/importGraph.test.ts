// The import graph of the whole repository, type-only imports included (the lint's import-x/no-cycle sees only
// the imports that survive compilation): no cycles, and only src/http (and src/app.ts, which mounts it) knows the
// problem renderer.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['src', 'indexer', 'indexContract', 'settings', 'db', 'bench', 'scripts', 'tools', 'test'];

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** File → the repository files it imports (relative specifiers, `.js` written for the `.ts` beside it). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle's files (strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.map((component) => component.map((file) => relative(ROOT, file)).sort());
}

describe('architecture: the import graph', () => {
  const graph = importGraph();

  it('reads the whole repository', () => {
    expect(graph.size).to.be.above(200);
    const app = graph.get(join(ROOT, 'src/app.ts'));
    expect(app).to.include(join(ROOT, 'src/http/problemResponses.ts'));
  });

  it('has no cycle, type-only imports included', () => {
    expect(cycles(graph)).to.deep.equal([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const a = join(ROOT, 'a.ts');
    const b = join(ROOT, 'b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).to.deep.equal([['a.ts', 'b.ts']]);
  });

  it('lets only src/http and src/app.ts import the problem renderer', () => {
    const renderer = join(ROOT, 'src/http/problemResponses.ts');
    const importers = [...graph]
      .filter(([file, targets]) => targets.includes(renderer) && file.startsWith(join(ROOT, 'src')))
      .map(([file]) => relative(ROOT, file));
    expect(importers.filter((file) => !file.startsWith('src/http/') && file !== 'src/app.ts')).to.deep.equal(
      [],
    );
  });
});
