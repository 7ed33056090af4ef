#!/usr/bin/env node
// Runs the compiled indexer CLI when `npm run build` made one, else the TypeScript source through tsx,
// so `npx ppa-indexer …` works in a plain checkout. The garbage collector is tuned for a batch job before the
// CLI loads (indexer/gcTuning.ts).
import { existsSync } from 'node:fs';

const compiled = existsSync(new URL('../dist/indexer/cli.js', import.meta.url));
if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
}
const module = (name) =>
  new URL(compiled ? `../dist/indexer/${name}.js` : `../indexer/${name}.ts`, import.meta.url).href;
const { tuneGarbageCollector } = await import(module('gcTuning'));
tuneGarbageCollector();
await import(module('cli'));
