// The API's environment variables as one markdown table, generated from their declarations (src/config.ts), and
// written between markers into the documents that show it: README.md, docs/api.md and docs/operations.md. A unit
// test (test/unit/docs/generated.test.ts) compares what is committed with what this makes, so a variable, a
// default or a meaning changed in the code without `npm run docs` fails the suite.
//
//   npm run docs            # rewrites the generated sections
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES_SPEC } from '../../src/config.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The documents holding the table, from the repository's root. */
export const ENVIRONMENT_DOCUMENTS = ['README.md', 'docs/api.md', 'docs/operations.md'] as const;

const BEGIN =
  '<!-- environment: generated from src/config.ts by `npm run docs`; edit the declarations, not this -->';
const END = '<!-- /environment -->';

/** The table: one row per variable, in the order they are declared. */
export function environmentTable(): string {
  const rows = Object.entries(CONFIG_VARIABLES_SPEC).map(([name, spec]) => {
    const fallback = spec.default === undefined ? 'unset' : `\`${spec.default}\``;
    return `| \`${name}\` | ${fallback} | ${spec.meaning.replaceAll('|', '\\|')} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `document` with its generated section made anew; an error when it has no markers. */
export function withEnvironmentTable(document: string, name: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${name}: no generated environment section (${BEGIN})`);
  return `${document.slice(0, begin)}${BEGIN}\n${environmentTable()}\n${document.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of ENVIRONMENT_DOCUMENTS) {
    const path = `${REPO_ROOT}${name}`;
    const before = await readFile(path, 'utf8');
    const after = withEnvironmentTable(before, name);
    if (after !== before) await writeFile(path, after);
    process.stdout.write(`${name}: ${after === before ? 'up to date' : 'rewritten'}\n`);
  }
}
