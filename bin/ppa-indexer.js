#!/usr/bin/env node
// Runs the compiled indexer CLI when `npm run build` made one, else the TypeScript source through tsx,
// so `npx ppa-indexer …` works in a plain checkout.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/indexer/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../indexer/cli.ts', import.meta.url).href);
}
