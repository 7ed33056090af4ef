// The OpenAPI document is checked against the last release's (openapi/releases/<version>.json, written at release
// time by `npm run openapi:release`): a change that breaks a client of that release fails here unless CHANGELOG.md
// allows it. Breaking (tools/openapi/breakingChanges.ts: api-smart-diff, and tools/openapi/missedBreaks.ts for what
// it does not count): a removed path, operation, parameter, response or response field; a parameter newly required
// or a required one added; a narrowed request (type, pattern, maxLength, minimum/maximum, enum); a response field
// made optional or of another type.
// Allowed: an entry under `### Breaking` in `## Unreleased` (or in the section of package.json's version while it is
// being released, i.e. has no document kept yet) that names it between backticks: the parameter (`per_page`), the
// field (`capacity_mw` or `data[].capacity_mw`), or for a removed operation or response the path
// (`/api/v1/ppas/suggest`) (tools/openapi/changelogBreaking.ts).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { RELEASE } from '../../../indexContract/contract.js';
import { projectFile } from '../../../indexContract/projectFile.js';
import { buildOpenApiSpec } from '../../../src/operations/openApi.js';
import { breakingChanges, formatBreakingChange } from '../../../tools/openapi/breakingChanges.js';
import {
  allowedBy,
  namesAllowedToBreak,
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
    const changes = breakingChanges(readReleaseDocument(last), buildOpenApiSpec());
    // The section being released has no document yet; a released one's entries allowed the breaks before it.
    const sections = RELEASE === last ? ['Unreleased'] : ['Unreleased', RELEASE];
    const allowed = namesAllowedToBreak(changelog, sections);
    const unexplained = changes.filter((change) => !allowedBy(change, allowed)).map(formatBreakingChange);
    if (unexplained.length > 0) {
      expect.fail(
        `${unexplained.length} breaking change(s) since release ${last}, none named under "### Breaking" in ` +
          `CHANGELOG.md's ${sections.map((section) => `"## ${section}"`).join(' or ')}:\n  ` +
          unexplained.join('\n  '),
      );
    }
  });
});
