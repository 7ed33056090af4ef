import { expect } from 'chai';
import {
  allowedRemovals,
  checkRemovals,
  describeLimit,
  MassRemovalError,
  parseRemovalLimit,
} from '../../../../indexer/changes/removalGuard.js';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';

describe('indexer changes: --max-removed', () => {
  it('reads a share or a count, and refuses anything else', () => {
    expect(parseRemovalLimit('5%')).to.deep.equal({ share: 0.05 });
    expect(parseRemovalLimit('12.5%')).to.deep.equal({ share: 0.125 });
    expect(parseRemovalLimit('100%')).to.deep.equal({ share: 1 });
    expect(parseRemovalLimit('250')).to.deep.equal({ count: 250 });
    for (const bad of ['', '5 %x', '-1', '101%', '1e3', 'all', '5.%'])
      expect(() => parseRemovalLimit(bad), bad).to.throw(/share|count/);
    expect(describeLimit({ share: 0.125 })).to.equal('12.5%');
    expect(describeLimit({ count: 3 })).to.equal('3');
  });

  it('allows up to the share of the live PPAs (rounded down), or the count', () => {
    expect(allowedRemovals({ share: 0.05 }, 455)).to.equal(22);
    expect(allowedRemovals({ share: 0.05 }, 20)).to.equal(1);
    expect(allowedRemovals({ share: 1 }, 7)).to.equal(7);
    expect(allowedRemovals({ count: 3 }, 1_000_000)).to.equal(3);
  });

  it('throws exit 5 past the limit, naming the counts and the way on', () => {
    expect(() => checkRemovals('reindex', 22, 455, { share: 0.05 })).to.not.throw();
    try {
      checkRemovals('reindex', 23, 455, { share: 0.05 });
      expect.fail('no error');
    } catch (error) {
      expect(error).to.be.instanceOf(MassRemovalError);
      const guard = error as MassRemovalError;
      expect(guard.exitCode).to.equal(EXIT_CODES.guard);
      expect(guard.message).to.equal(
        'the new generation would remove 23 of the 455 live PPAs (5.1%), more than --max-removed 5% allows',
      );
      expect(guard.hint).to.include('--max-removed 100%');
    }
    expect(() => checkRemovals('sync', 4, 10, { count: 3 })).to.throw(
      /this sync run would remove 4 of the 10/,
    );
  });
});
