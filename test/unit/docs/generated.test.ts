// The sections generated from the code (tools/docs/: the API's environment, the indexer's exit codes and its
// environment) are what the code says now: a variable, a default, a code or a meaning changed in its declaration without
// `npm run docs` fails here.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { EXIT_CODE_TABLE } from '../../../indexer/exitCodes.js';
import { CONFIG_VARIABLES_SPEC } from '../../../src/config.js';
import { ENVIRONMENT_SECTION } from '../../../tools/docs/environment.js';
import { EXIT_CODES_SECTION } from '../../../tools/docs/exitCodes.js';
import { INDEXER_ENVIRONMENT_SECTION } from '../../../tools/docs/indexerEnvironment.js';
import { GENERATED_SECTIONS } from '../../../tools/docs/main.js';
import { REPO_ROOT, withSection } from '../../../tools/docs/section.js';

const committed = (name: string) => readFileSync(`${REPO_ROOT}${name}`, 'utf8');

describe('docs: the sections generated from the code (npm run docs)', () => {
  for (const section of GENERATED_SECTIONS) {
    for (const name of section.documents) {
      it(`${name} holds the ${section.name} section as ${section.source} makes it`, () => {
        const text = committed(name);
        expect(withSection(section, text, name) === text, `${name} is stale: run npm run docs`).to.equal(
          true,
        );
      });
    }
  }

  it('the environment table has one row per variable, with its default', () => {
    const table = ENVIRONMENT_SECTION.text();
    for (const [name, spec] of Object.entries(CONFIG_VARIABLES_SPEC)) {
      expect(table).to.include(
        `| \`${name}\` | ${spec.default === undefined ? 'unset' : `\`${spec.default}\``} |`,
      );
    }
  });

  it('the exit-code table has one row per code, with its meaning', () => {
    const table = EXIT_CODES_SECTION.text();
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(table).to.include(`| \`${code}\` | ${meaning} |`);
    expect(table.split('\n')).to.have.length(EXIT_CODE_TABLE.length + 2);
  });

  it('a changed default or meaning is seen as stale, and made anew', () => {
    const edits = [
      {
        section: ENVIRONMENT_SECTION,
        name: 'README.md',
        from: '| `ADMISSION_TARGET_MS` | `1000` |',
        to: '| `ADMISSION_TARGET_MS` | `900` |',
      },
      {
        section: EXIT_CODES_SECTION,
        name: 'docs/operations.md',
        from: '| `4` | another reindex',
        to: '| `4` | one more reindex',
      },
      {
        section: INDEXER_ENVIRONMENT_SECTION,
        name: 'docs/operations.md',
        from: '| `ES_REQUEST_TIMEOUT_MS` | `60000` |',
        to: '| `ES_REQUEST_TIMEOUT_MS` | `2000` |',
      },
    ];
    for (const { section, name, from, to } of edits) {
      const text = committed(name);
      const edited = text.replace(from, to);
      expect(edited, `${name}: ${from}`).to.not.equal(text);
      expect(withSection(section, edited, name)).to.equal(text);
    }
  });

  it('a document without the markers is an error, not a section written nowhere', () => {
    expect(() => withSection(EXIT_CODES_SECTION, '# no table here\n', 'empty.md')).to.throw(
      /empty\.md: no generated exit-codes section/,
    );
  });
});
