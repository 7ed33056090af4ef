import { expect } from 'chai';
import { remembered } from '../../../../../src/matching/highlight/boundedMemo.js';

describe('matching: values kept across answers (highlight/boundedMemo.ts)', () => {
  it('makes a value once and keeps it', () => {
    const memo = new Map<string, { key: string }>();
    let made = 0;
    const make = (key: string) => {
      made++;
      return { key };
    };
    const first = remembered(memo, 10, 'a', make);
    expect(remembered(memo, 10, 'a', make)).to.equal(first);
    expect(made).to.equal(1);
  });

  it('never holds more than its bound: it is emptied whole when full', () => {
    const memo = new Map<string, number>();
    for (let index = 0; index < 25; index++) remembered(memo, 10, `k${index}`, () => index);
    expect(memo.size).to.be.at.most(10);
    expect(memo.size).to.equal(5);
    expect(memo.has('k24')).to.equal(true);
    expect(memo.has('k0')).to.equal(false);
  });
});
