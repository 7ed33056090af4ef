// `npm run monitoring`: writes the rule files and the dashboard generated from deploy/prometheus/'s declarations
// (test/unit/tools/monitoring/outputs.test.ts fails while a committed one differs).
// `npm run monitoring -- --time-scale 0.01 --out <dir>` writes only the rule files, every window and `for:` scaled,
// into <dir>: rules to watch fire in seconds, never to ship.
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { monitoringFiles, ruleFiles } from './outputs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({ options: { 'time-scale': { type: 'string' }, out: { type: 'string' } } });

if (values['time-scale'] !== undefined) {
  const timeScale = Number(values['time-scale']);
  if (!(timeScale > 0) || !values.out)
    throw new Error('--time-scale takes a number above 0, and --out a directory');
  await mkdir(values.out, { recursive: true });
  for (const file of await ruleFiles({ timeScale })) {
    await writeFile(join(values.out, basename(file.path)), file.text);
    process.stdout.write(`${join(values.out, basename(file.path))}\n`);
  }
} else {
  for (const file of await monitoringFiles()) {
    await mkdir(dirname(join(root, file.path)), { recursive: true });
    await writeFile(join(root, file.path), file.text);
    process.stdout.write(`${file.path}\n`);
  }
}
