// The lint rule that keeps measured durations out of the tests' literal bounds (tools/eslint/measuredTimeBounds.js):
// it flags the forms that failed on a loaded machine, passes a bound made of a deadline and the named slack, and
// finds nothing in test/ as it stands.
import { expect } from 'chai';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import plugin, { noMeasuredTimeBounds, wordsOf } from '../../../../tools/eslint/measuredTimeBounds.js';

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const flagged = (code: string) => ({ code, errors: [{ messageId: 'literalBound' }] });

describe('tools/eslint/measuredTimeBounds: no measured duration bounded by a literal in test/', () => {
  it('splits camelCase and snake_case names into their words', () => {
    expect(wordsOf('elapsedMs')).to.deep.equal(['elapsed', 'ms']);
    expect(wordsOf('ppa_index_age_seconds')).to.deep.equal(['ppa', 'index', 'age', 'seconds']);
  });

  tester.run('no-measured-time-bounds', noMeasuredTimeBounds, {
    valid: [
      'expect(slowest).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));',
      'expect(answer.ms).to.be.below(deadline + SHARED_MACHINE_SLACK_MS);',
      'expect(performance.now() - started).to.be.below(REQUEST_TIMEOUT_MS / 2);',
      // Counts, and lower bounds: a loaded machine makes nothing faster.
      'expect(hanging.searchesSent).to.be.within(1, 2);',
      'expect(answer.ms).to.be.at.least(1400);',
      'expect(waited.length).to.be.at.most(4);',
      'while (Date.now() < deadline) poll();',
      'expect(builtAt.getTime()).to.be.within(before, Date.now());',
    ],
    invalid: [
      flagged('expect(Math.max(...answers.map((a) => a.elapsedMs))).to.be.below(300);'),
      flagged('expect(slowest).to.be.below(normalMs + 300);'),
      flagged("expect(Date.now() - started, 'ms to exit').to.be.below(10_000);"),
      flagged('expect(performance.now() - started).to.be.lessThan(5000);'),
      flagged('expect(took, "ms until found").to.be.at.most(2000);'),
      flagged('expect(status.age_seconds).to.be.within(0, 120);'),
      flagged('expect(p99).to.be.below(2000);'),
      flagged('expect(latencyMs).to.be.closeTo(30, 0.5);'),
      flagged('assert(Date.now() - started < 123);'),
      flagged('assert.ok(500 > performance.now() - t0) || assert(500 > performance.now() - t0);'),
      flagged('expect(elapsed <= 1000).to.equal(true);'),
    ],
  });

  it('finds nothing in test/ as it stands', async function () {
    this.timeout(60_000);
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          plugins: { local: plugin },
          rules: { 'local/no-measured-time-bounds': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['test/**/*.ts']);
    // (Directives that name the project's other rules, unknown to this one-rule config, are not this rule's.)
    const found = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'local/no-measured-time-bounds')
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(results.length, 'files linted').to.be.above(100);
    expect(found).to.deep.equal([]);
  });
});
