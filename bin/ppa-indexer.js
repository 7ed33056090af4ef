#!/usr/bin/env node
// Runs the compiled indexer CLI when `npm run build` made one, else the TypeScript source through tsx,
// so `npx ppa-indexer …` works in a plain checkout.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// Garbage-collector tuning for a batch job, applied before anything is loaded. A reindex allocates gigabytes
// of short-lived objects (a parsed record, its document, its JSON) while keeping little: the duplicate-key maps
// of pass 1 (about 16 MB per 100k records) and a few bulk bodies, which live outside the JS heap. V8's defaults
// suit a server, not this: its young generation grows to 2 × 16 MB and stays there, and after each full GC it
// lets the old generation grow to up to 4× what survived before collecting again, so a run whose live heap is
// 15–30 MB ends up with a peak RSS twice what it needs (130 MB rather than about 100 MB for 100k records).
// - semi-space-growth-factor=1: the young generation keeps its initial 2 × 1 MB. Nearly all that is
//   allocated dies young, so collecting it more often costs little; what outlives it moves up as it would.
// - heap-growing-percent=30: the next full GC comes once the old generation is 30% above what survived the
//   last one, not up to 300%. It is a factor, not a cap, so a run whose duplicate-key maps need 160 MB (1M
//   records) or more still grows as far as it must; it pays a few more full GCs on the way.
// Both are read by V8 when it resizes the heap, so they take effect when set here, at run time, which keeps
// this a single process (no re-exec with flags: signals, exit codes and the measured peak RSS stay its own).
// Operators who set either flag themselves (NODE_OPTIONS or `node --… bin/ppa-indexer.js`) keep theirs.
// Set last, just before the CLI loads: Node puts V8's flags back as they were whenever it starts a worker
// thread, as tsx's register() does for its loader.
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
