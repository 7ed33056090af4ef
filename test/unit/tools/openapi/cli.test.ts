import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiSpec } from '../../../../src/operations/openApi.js';
import { writeThisRelease } from '../../../../tools/openapi/cli.js';

describe('openapi: npm run openapi:release', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-release-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes the API’s document of the release, as served without PUBLIC_BASE_URL', async () => {
    const path = await writeThisRelease([], '9.9.9', dir);
    expect(path).to.equal(join(dir, '9.9.9.json'));
    const text = await readFile(path, 'utf8');
    expect(text).to.equal(`${JSON.stringify(buildOpenApiSpec({ version: '9.9.9' }), null, 2)}\n`);
  });

  it('refuses to write a kept release again without --overwrite', async () => {
    await writeThisRelease([], '9.9.9', dir);
    let refused: unknown;
    await writeThisRelease([], '9.9.9', dir).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.include('is kept as released');
    expect(await writeThisRelease(['--overwrite'], '9.9.9', dir)).to.equal(join(dir, '9.9.9.json'));
  });
});
