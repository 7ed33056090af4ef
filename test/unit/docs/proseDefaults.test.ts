// Prose that gives a variable's default ("`RESPONSE_CACHE_MB`, default 32 MiB", "`EXPORT_CONCURRENCY` (default 4)")
// says the default its declaration holds: the API's (src/config.ts), the indexer's (indexer/commands/environment.ts)
// or docker-compose.yml's (`${NAME:-default}`). The tables are generated (generated.test.ts); this keeps the
// sentences around them from drifting.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { indexerVariables } from '../../../indexer/commands/environment.js';
import { CONFIG_VARIABLES_SPEC } from '../../../src/config.js';
import { REPO_ROOT } from '../../../tools/docs/section.js';

const read = (name: string) => readFileSync(`${REPO_ROOT}${name}`, 'utf8');

/** Every default a name is declared with (a name the API and the indexer both read may have two). */
function declaredDefaults(): Map<string, Set<string>> {
  const defaults = new Map<string, Set<string>>();
  const add = (name: string, value: string | undefined) => {
    if (value === undefined) return;
    defaults.set(name, (defaults.get(name) ?? new Set()).add(value));
  };
  for (const [name, spec] of Object.entries(CONFIG_VARIABLES_SPEC)) add(name, spec.default);
  for (const variable of indexerVariables()) add(variable.name, variable.default);
  for (const [, name, value] of read('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}/g)) {
    add(name!, value);
  }
  return defaults;
}

/**
 * "`NAME` (default VALUE" and "`NAME`, default VALUE": the name, and the value as quoted (`…`) or its first word
 * ("32" of "32 MiB", "60" of "60/60 s").
 */
const PROSE_DEFAULT = /`([A-Z][A-Z0-9_]+)`(?: \(|, )default (?:`([^`]+)`|([^\s`),;/]+))/g;
const saidOf = (match: RegExpMatchArray) => ({ name: match[1]!, said: match[2] ?? match[3]! });

describe('docs: prose that names a variable’s default', () => {
  const documents = ['README.md', ...readdirSync(`${REPO_ROOT}docs`).map((name) => `docs/${name}`)].filter(
    (name) => name.endsWith('.md'),
  );
  const defaults = declaredDefaults();

  it('says the default the variable is declared with', () => {
    const checked: string[] = [];
    for (const document of documents) {
      for (const match of read(document).matchAll(PROSE_DEFAULT)) {
        const { name, said } = saidOf(match);
        const declared = defaults.get(name);
        expect(declared, `${document}: ${name} has no declared default`).to.not.equal(undefined);
        expect([...declared!], `${document}: ${name}'s default`).to.include(said);
        checked.push(`${name}=${said}`);
      }
    }
    // The sentences are there to check: the pattern still finds them.
    expect(checked.length, checked.join(', ')).to.be.at.least(8);
  });

  it('is read by a pattern that catches a changed default', () => {
    const text = 'Each instance keeps answers (`RESPONSE_CACHE_MB`, default 16 MiB).';
    const { name, said } = saidOf([...text.matchAll(PROSE_DEFAULT)][0]!);
    expect([name, said]).to.deep.equal(['RESPONSE_CACHE_MB', '16']);
    expect([...defaults.get(name)!]).to.not.include(said);
  });
});
