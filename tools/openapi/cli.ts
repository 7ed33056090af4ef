// `npm run openapi:release`: writes this release's OpenAPI document (package.json's version) to
// openapi/releases/<version>.json, the document the next release is checked against (docs/development.md,
// "Cutting a release"). `-- --overwrite` writes it again over one already kept (a release being redone).
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { RELEASE } from '../../indexContract/contract.js';
import { buildOpenApiSpec } from '../../src/operations/openApi.js';
import { writeReleaseDocument } from './releaseDocuments.js';

/** Writes the document of `version` (the API's as built now) and names the file; `dir`: for tests. */
export async function writeThisRelease(argv: string[], version = RELEASE, dir?: string): Promise<string> {
  const { values } = parseArgs({ args: argv, options: { overwrite: { type: 'boolean', default: false } } });
  return writeReleaseDocument(version, buildOpenApiSpec({ version }), {
    overwrite: values.overwrite,
    ...(dir ? { dir } : {}),
  });
}

// Run as the script (not imported by its test).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await writeThisRelease(process.argv.slice(2))}\n`);
}
