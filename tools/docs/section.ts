// A section of a document generated from the code: written between two markers by `npm run docs` (main.ts), and
// compared with what is committed by a unit test (test/unit/docs/generated.test.ts), so that a declaration
// changed without regenerating fails the suite. Each table has a module of its own beside this one.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface GeneratedSection {
  /** The marker's name: `<!-- <name>: generated from … -->` … `<!-- /<name> -->`. */
  name: string;
  /** Where the declarations are, as the opening marker names them. */
  source: string;
  /** The documents holding the section, from the repository's root. */
  documents: readonly string[];
  /** The section's text, as the declarations make it now. */
  text(): string;
}

function beginMarker(section: GeneratedSection): string {
  return `<!-- ${section.name}: generated from ${section.source} by \`npm run docs\`; edit the declarations, not this -->`;
}

/** `document` (named `name` in the error) with `section` made anew; an error when it has no markers. */
export function withSection(section: GeneratedSection, document: string, name: string): string {
  const begin = beginMarker(section);
  const end = `<!-- /${section.name} -->`;
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${name}: no generated ${section.name} section (${begin})`);
  return `${document.slice(0, from)}${begin}\n${section.text()}\n${document.slice(to)}`;
}

/** A markdown table: a header row, then the rows; a `|` inside a cell is escaped. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
