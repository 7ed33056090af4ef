// The benchmark smoke stage of `npm test`: every declared suite's quick form runs end to end (a few hundred
// records, rounds of a second), so no suite can rot unseen. Three at a time: a quick form measures nothing, and
// most of its time is starting processes and waiting on them. A suite's output is shown only when it fails.
import { expect } from 'chai';
import { startQuickForms, type QuickRun } from '../../bench/quickAll.js';
import { SUITES } from '../../bench/suites.js';

const JOBS = 3;
/** The end of a failed suite's output shown in the failure: where its error is. */
const SHOWN_LINES = 60;

describe(`bench: every suite's quick form (${JOBS} at a time)`, function () {
  this.timeout(600_000);
  let runs: Map<string, Promise<QuickRun>>;

  before(() => {
    runs = startQuickForms(SUITES, JOBS, false);
  });

  for (const suite of SUITES) {
    it(`${suite.name}: ${suite.summary}`, async () => {
      const run = await runs.get(suite.name)!;
      const shown = run.output.trimEnd().split('\n').slice(-SHOWN_LINES).join('\n');
      expect(
        run.code,
        `npm run bench -- ${suite.name} --quick exited ${run.code}; its output ends:\n${shown}`,
      ).to.equal(0);
    });
  }
});
