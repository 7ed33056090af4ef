#!/usr/bin/env node
// Runs the compiled indexer CLI when `npm run build` made one, else the TypeScript source through tsx,
// so `npx ppa-indexer …` works in a plain checkout.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// Garbage-collector tuning for a batch job, applied before anything is loaded and skipped when the operator set
// either flag: why and what it saves are in docs/operations.md ("Indexer memory").
function tuneGarbageCollector() {
  const ownFlags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (/semi[-_]space|heap[-_]growing/.test(ownFlags)) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=30');
}

const compiled = new URL('../dist/indexer/cli.js', import.meta.url);
if (existsSync(compiled)) {
  tuneGarbageCollector();
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  tuneGarbageCollector();
  await import(new URL('../indexer/cli.ts', import.meta.url).href);
}
