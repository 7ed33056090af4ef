// Files that ship beside the code (mappings/*.json) are read at run time. From the TypeScript source they are
// one level up (indexContract/ → mappings/); from the build (dist/indexContract/) two levels up.
import { existsSync } from 'node:fs';

export function projectFile(relativePath: string): URL {
  const candidates = [
    new URL(`../${relativePath}`, import.meta.url),
    new URL(`../../${relativePath}`, import.meta.url),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new Error(`cannot find ${relativePath} beside the code (looked in ${candidates.join(', ')})`);
  return found;
}
