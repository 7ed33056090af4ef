import { expect } from 'chai';
import { canonicalUtc } from '../../../../indexContract/text/timestamp.js';

describe('text: canonical UTC timestamps', () => {
  const viaDate = (value: string) => new Date(value).toISOString().replace('.000Z', 'Z');

  it('keeps the canonical form and converts the others through Date, with the same result', () => {
    const samples = [
      '2024-03-01T12:00:00Z',
      '2024-03-01T12:00:00.000Z',
      '2024-03-01T12:00:00.250Z',
      '2024-03-01T14:00:00+02:00',
      '2024-03-01T12:00:00.5Z',
      '2024-02-29T23:59:59Z',
      '1999-12-31T00:00:00-05:00',
    ];
    for (const sample of samples) expect(canonicalUtc(sample), sample).to.equal(viaDate(sample));
  });

  it('rejects what is not a timestamp, and days that the month does not have', () => {
    expect(canonicalUtc('yesterday')).to.equal(null);
    expect(canonicalUtc('2023-02-29T00:00:00Z')).to.equal(null);
    expect(canonicalUtc('2024-04-31T00:00:00Z')).to.equal(null);
    expect(canonicalUtc('2024-02-29T00:00:00Z')).to.equal('2024-02-29T00:00:00Z');
  });
});
