import { expect } from 'chai';
import { readChangeLogSettings } from '../../../settings/changeLog.js';
import { ConfigError } from '../../../settings/variables.js';

describe('settings: CHANGES_RETENTION_DAYS', () => {
  it('defaults to the shared retention, and an empty value counts as unset', () => {
    expect(readChangeLogSettings({})).to.deep.equal({ retentionDays: 90 });
    expect(readChangeLogSettings({ CHANGES_RETENTION_DAYS: ' ' })).to.deep.equal({ retentionDays: 90 });
  });

  it('takes days with decimals', () => {
    expect(readChangeLogSettings({ CHANGES_RETENTION_DAYS: ' 0.5 ' })).to.deep.equal({ retentionDays: 0.5 });
    expect(readChangeLogSettings({ CHANGES_RETENTION_DAYS: '36500' })).to.deep.equal({
      retentionDays: 36_500,
    });
  });

  for (const bad of ['0', '0.0', '-1', '1e3', 'ten', '36501', '1.']) {
    it(`refuses ${JSON.stringify(bad)}, naming the variable and the value`, () => {
      expect(() => readChangeLogSettings({ CHANGES_RETENTION_DAYS: bad }))
        .to.throw(ConfigError)
        .with.property('message')
        .that.includes(
          `CHANGES_RETENTION_DAYS must be a number of days above 0 (got ${JSON.stringify(bad)})`,
        );
    });
  }
});
