// The sections generated from the code (tools/docs/environment.ts) are what the code says now: a variable, a
// default or a meaning changed in src/config.ts without `npm run docs` fails here.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES_SPEC } from '../../../src/config.js';
import {
  ENVIRONMENT_DOCUMENTS,
  environmentTable,
  REPO_ROOT,
  withEnvironmentTable,
} from '../../../tools/docs/environment.js';

describe('docs: the environment tables, generated from src/config.ts', () => {
  for (const name of ENVIRONMENT_DOCUMENTS) {
    it(`${name} holds the table as the declarations make it (npm run docs)`, () => {
      const committed = readFileSync(`${REPO_ROOT}${name}`, 'utf8');
      expect(
        withEnvironmentTable(committed, name) === committed,
        `${name} is stale: run npm run docs`,
      ).to.equal(true);
    });
  }

  it('has one row per variable, with its default', () => {
    const table = environmentTable();
    for (const [name, spec] of Object.entries(CONFIG_VARIABLES_SPEC)) {
      expect(table).to.include(
        `| \`${name}\` | ${spec.default === undefined ? 'unset' : `\`${spec.default}\``} |`,
      );
    }
  });

  it('a changed default is seen as stale', () => {
    const committed = readFileSync(`${REPO_ROOT}README.md`, 'utf8');
    const edited = committed.replace(
      '| `ADMISSION_TARGET_MS` | `1000` |',
      '| `ADMISSION_TARGET_MS` | `900` |',
    );
    expect(edited).to.not.equal(committed);
    expect(withEnvironmentTable(edited, 'README.md')).to.equal(committed);
  });
});
