// No module-level mutable state in src/, indexer/ and indexContract/: a `let` or `var` at a module's top level, or a
// Map or Set made there (or as a class's static field) that is not typed read-only, is state every request of every
// app in the process would share, filled and never bounded. What a process needs kept across requests is owned by
// the app (made in the composition root, src/app.ts or src/services.ts, bounded by a named constant); a table
// built once at import from constants is typed ReadonlyMap or ReadonlySet, so that nothing writes it later.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['src', 'indexer', 'indexContract'];
/** The composition root: what one process keeps for the apps it builds is declared there, and only there. */
const COMPOSITION_ROOT = new Set(['src/app.ts', 'src/services.ts']);
const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const READ_ONLY = new Set(['ReadonlyMap', 'ReadonlySet']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `new Map(…)`, `new Set(…)`… without a read-only type: a collection someone may write. */
function mutableCollection(initializer: ts.Expression | undefined, type: ts.TypeNode | undefined): boolean {
  if (!initializer || !ts.isNewExpression(initializer) || !ts.isIdentifier(initializer.expression))
    return false;
  if (!COLLECTIONS.has(initializer.expression.text)) return false;
  return !(type && ts.isTypeReferenceNode(type) && READ_ONLY.has(type.typeName.getText()));
}

/** The module-level mutable state a file declares, one line each ("<name> (line n): let"). */
export function moduleStateOf(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const note = (node: ts.Node, what: string, kind: string) =>
    found.push(`${what} (line ${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}): ${kind}`);
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const constant = (flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        const what = declaration.name.getText();
        if (!constant) note(declaration, what, 'let or var');
        else if (mutableCollection(declaration.initializer, declaration.type))
          note(declaration, what, 'a Map or Set not typed read-only');
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts.canHaveModifiers(member)
          ? (ts.getModifiers(member) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword)
          : false;
        if (
          isStatic &&
          ts.isPropertyDeclaration(member) &&
          mutableCollection(member.initializer, member.type)
        )
          note(member, member.name.getText(), 'a static Map or Set not typed read-only');
      }
    }
  }
  return found;
}

describe('architecture: no module-level mutable state', () => {
  it('flags a top-level let, a Map or Set made at the top level or as a static field, not a read-only table', () => {
    const example = [
      'let cached: string | undefined;',
      'const SEEN = new Map<string, number>();',
      'export const WORDS: Set<string> = new Set();',
      "const FIXED: ReadonlySet<string> = new Set(['a']);",
      'const LIMIT = 10;',
      'class Registry { static all = new Map(); private own = new Map(); }',
      'function inside() { let local = 0; const map = new Map(); return [local, map]; }',
    ].join('\n');
    expect(moduleStateOf('example.ts', example)).to.deep.equal([
      'cached (line 1): let or var',
      'SEEN (line 2): a Map or Set not typed read-only',
      'WORDS (line 3): a Map or Set not typed read-only',
      'all (line 6): a static Map or Set not typed read-only',
    ]);
  });

  it('finds none in src/, indexer/ and indexContract/ outside the composition root', () => {
    const found = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .map((path) => relative(ROOT, path))
      .filter((path) => !COMPOSITION_ROOT.has(path))
      .flatMap((path) =>
        moduleStateOf(path, readFileSync(join(ROOT, path), 'utf8')).map((line) => `${path}: ${line}`),
      );
    expect(found).to.deep.equal([]);
  });
});
