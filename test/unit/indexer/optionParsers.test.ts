// The numbers the CLI's options take: strict decimals, their bounds named in the error.
import { expect } from 'chai';
import { InvalidArgumentError } from 'commander';
import {
  nonNegativeInteger,
  nonNegativeNumber,
  positiveInteger,
  positiveNumber,
} from '../../../indexer/optionParsers.js';

describe('indexer/optionParsers', () => {
  it('reads strict decimals within their bounds', () => {
    expect(positiveInteger('12')).to.equal(12);
    expect(nonNegativeInteger('0')).to.equal(0);
    expect(nonNegativeNumber('2.5')).to.equal(2.5);
    expect(positiveNumber('0.1')).to.equal(0.1);
  });

  it('refuses anything else, saying what it expected', () => {
    const cases: [(value: string) => number, string, string][] = [
      [positiveInteger, '0', 'an integer >= 1'],
      [positiveInteger, '1e3', 'an integer >= 1'],
      [positiveInteger, '012', 'an integer >= 1'],
      [nonNegativeInteger, '-1', 'an integer >= 0'],
      [nonNegativeNumber, '.5', 'a number >= 0'],
      [nonNegativeNumber, 'Infinity', 'a number >= 0'],
      [positiveNumber, '0', 'a number > 0'],
    ];
    for (const [parse, value, expected] of cases) {
      expect(() => parse(value), value).to.throw(InvalidArgumentError, expected);
    }
  });
});
