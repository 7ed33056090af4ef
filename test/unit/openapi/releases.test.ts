// The OpenAPI document is checked against the last release's (openapi/releases/<version>.json, written at release
// time by `npm run openapi:release`): a change that breaks a client of that release fails here unless CHANGELOG.md
// allows it. Breaking (tools/openapi/breakingChanges.ts: api-smart-diff, and tools/openapi/missedBreaks.ts for what
// it does not count): a removed path, operation, parameter, response or response field; a parameter newly required
// or a required one added; a narrowed request (type, pattern, maxLength, minimum/maximum, enum); a response field
// made optional or of another type.
// Allowed: an entry under `### Breaking` in `## Unreleased` (or in the section of package.json's version while it is
// being released, i.e. has no document kept yet) that names that operation, that parameter, field or path, and that
// kind of change: ``- `listPpas` `year` narrowed: …`` (tools/openapi/changelogBreaking.ts); every entry there is in
// that form.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { RELEASE } from '../../../indexContract/contract.js';
import { projectFile } from '../../../indexContract/projectFile.js';
import { buildOpenApiSpec } from '../../../src/operations/openApi.js';
import { breakingChanges, formatBreakingChange } from '../../../tools/openapi/breakingChanges.js';
import {
  allowedBy,
  breakingWaivers,
  operationIdsOf,
  releasedVersions,
} from '../../../tools/openapi/changelogBreaking.js';
import {
  lastStoredRelease,
  readReleaseDocument,
  storedReleases,
} from '../../../tools/openapi/releaseDocuments.js';

const changelog = readFileSync(projectFile('CHANGELOG.md'), 'utf8');

describe('openapi: the document against the last release’s', function () {
  this.timeout(30_000);

  it('keeps the document of the newest release of CHANGELOG.md', () => {
    const newest = releasedVersions(changelog)[0];
    expect(storedReleases(), `openapi/releases/${newest}.json (npm run openapi:release)`).to.include(newest);
  });

  it('breaks nothing of it that CHANGELOG.md does not name under Breaking', () => {
    const last = lastStoredRelease()!;
    const current = buildOpenApiSpec();
    const changes = breakingChanges(readReleaseDocument(last), current);
    // The section being released has no document yet; a released one's entries allowed the breaks before it.
    const sections = RELEASE === last ? ['Unreleased'] : ['Unreleased', RELEASE];
    const { waivers, malformed } = breakingWaivers(changelog, sections);
    expect(
      malformed,
      'entries under ### Breaking not in the form - `<operation>` `<name>` <kind>: …',
    ).to.deep.equal([]);
    const operationIds = operationIdsOf(current);
    const unexplained = changes
      .filter((change) => !allowedBy(change, waivers, operationIds))
      .map(formatBreakingChange);
    if (unexplained.length > 0) {
      expect.fail(
        `${unexplained.length} breaking change(s) since release ${last}, none named under "### Breaking" in ` +
          `CHANGELOG.md's ${sections.map((section) => `"## ${section}"`).join(' or ')}:\n  ` +
          unexplained.join('\n  '),
      );
    }
  });
});
