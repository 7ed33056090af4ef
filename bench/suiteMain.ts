// `node --import tsx bench/suiteMain.ts <suite module> [options]`: one suite from its own module, without loading
// every other suite as bench/main.ts does (each one's imports cost seconds of CPU): how bench/quickAll.ts starts
// each quick form.
import { pathToFileURL } from 'node:url';
import { runSuite, type Suite } from './suite.js';

const [module, ...args] = process.argv.slice(2);
if (module === undefined) {
  process.stderr.write('usage: bench/suiteMain.ts <suite module> [options]\n');
  process.exit(2);
}
const url = module.startsWith('file:') ? module : pathToFileURL(module).href;
const suite = ((await import(url)) as { default: Suite }).default;
await runSuite(suite, args);
