import { expect } from 'chai';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isDate, isDateTime, isUri } from '../../../../indexer/sources/recordFormats.js';

type Check = (value: string) => boolean;
const full = (name: 'date' | 'date-time' | 'uri'): Check => {
  const format = fullFormats[name] as Check | { validate: Check };
  return typeof format === 'function' ? format : format.validate;
};

describe('indexer: record string formats', () => {
  it('dates: the same verdicts as ajv-formats full mode (real calendar days)', () => {
    const samples = [
      '2024-02-29',
      '2023-02-29',
      '2024-04-31',
      '2024-12-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '1994-06-15',
      '24-01-01',
      '2024-1-01',
      '2024-01-01T00:00:00Z',
      ' 2024-01-01',
      '2024-01-01 ',
      '',
    ];
    for (const sample of samples) expect(isDate(sample), sample).to.equal(full('date')(sample));
  });

  it('date-times: the same verdicts as ajv-formats full mode, except that a leap second is refused', () => {
    const samples = [
      '2024-03-01T12:00:00Z',
      '2024-03-01t12:00:00z',
      '2024-03-01 12:00:00Z',
      '2024-03-01T12:00:00.123456+05:30',
      '2024-03-01T12:00:00-00:00',
      '2024-03-01T12:00:00+0530',
      '2024-03-01T12:00:00+05',
      '2024-03-01T12:00:00+05:60',
      '2024-02-30T12:00:00Z',
      '2024-03-01T24:00:00Z',
      '2024-03-01T12:60:00Z',
      '2024-03-01T12:00:00',
      '2024-03-01T12:00Z',
      '2024-03-01T12:00:00+25:00',
      '2024-03-01',
      'yesterday',
    ];
    for (const sample of samples) expect(isDateTime(sample), sample).to.equal(full('date-time')(sample));
    expect(full('date-time')('2024-12-31T23:59:60Z')).to.equal(true);
    expect(isDateTime('2024-12-31T23:59:60Z')).to.equal(false);
    expect(Number.isNaN(new Date('2024-12-31T23:59:60Z').getTime())).to.equal(true); // why: Date refuses it too
  });

  it('uris: a scheme and no whitespace (the schema pattern asks for http(s)://)', () => {
    for (const good of ['https://example.org/ppa.pdf', 'http://x.test/a?b=c#d', 'HTTPS://EXAMPLE.ORG'])
      expect(isUri(good), good).to.equal(true);
    for (const bad of ['example.org/ppa.pdf', 'https://example.org/a b.pdf', '', '://x'])
      expect(isUri(bad), bad).to.equal(false);
  });
});
