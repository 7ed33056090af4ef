// The committed rule files and dashboard are what `npm run monitoring` makes of deploy/prometheus/'s declarations
// now: a declaration changed without regenerating fails here.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monitoringFiles } from '../../../../tools/monitoring/outputs.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('monitoring: the generated files (npm run monitoring)', function () {
  this.timeout(30_000);

  it('are committed as the generator makes them', async () => {
    for (const file of await monitoringFiles()) {
      const path = `${root}${file.path}`;
      expect(existsSync(path), `${file.path} is missing: run npm run monitoring`).to.equal(true);
      expect(
        readFileSync(path, 'utf8') === file.text,
        `${file.path} is stale: run npm run monitoring`,
      ).to.equal(true);
    }
  });

  it('leave no rule file the generator no longer makes (Prometheus would load it)', async () => {
    const made = (await monitoringFiles()).map((file) => file.path);
    const committed = readdirSync(`${root}deploy/prometheus/rules`).map(
      (name) => `deploy/prometheus/rules/${name}`,
    );
    expect(committed.filter((path) => !made.includes(path))).to.deep.equal([]);
  });
});
