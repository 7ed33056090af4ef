// The OpenAPI document of each release, kept in the repository at release time (openapi/releases/<version>.json,
// written by `npm run openapi:release`): what the next release's document is checked against for breaking changes
// (test/unit/openapi/releases.test.ts). Written as the API serves it, without PUBLIC_BASE_URL.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the release documents are kept. */
export const RELEASES_DIR = fileURLToPath(new URL('../../openapi/releases/', import.meta.url));

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** Semantic versions in order (X.Y.Z, no pre-release). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => {
    const parts = VERSION.exec(version);
    if (!parts) throw new Error(`not a release version (X.Y.Z): ${version}`);
    return parts.slice(1).map(Number);
  });
  const differing = x!.findIndex((part, index) => part !== y![index]);
  return differing < 0 ? 0 : x![differing]! - y![differing]!;
}

/** The releases whose document is kept, oldest first. */
export function storedReleases(dir = RELEASES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => /^(\d+\.\d+\.\d+)\.json$/.exec(file)?.[1])
    .filter((version): version is string => version !== undefined)
    .sort(compareVersions);
}

/** The newest release whose document is kept; undefined: none yet. */
export const lastStoredRelease = (dir = RELEASES_DIR): string | undefined => storedReleases(dir).at(-1);

export const releaseDocumentPath = (version: string, dir = RELEASES_DIR): string =>
  join(dir, `${version}.json`);

export function readReleaseDocument(version: string, dir = RELEASES_DIR): Record<string, unknown> {
  return JSON.parse(readFileSync(releaseDocumentPath(version, dir), 'utf8')) as Record<string, unknown>;
}

/**
 * Writes a release's document (two-space JSON and a newline). A release's document is a record of what was
 * released: one already kept is not written again unless `overwrite`.
 */
export async function writeReleaseDocument(
  version: string,
  document: unknown,
  { dir = RELEASES_DIR, overwrite = false } = {},
): Promise<string> {
  compareVersions(version, version); // (a release version, or an error)
  const path = releaseDocumentPath(version, dir);
  if (existsSync(path) && !overwrite)
    throw new Error(`${path} exists: release ${version}'s document is kept as released`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
}
