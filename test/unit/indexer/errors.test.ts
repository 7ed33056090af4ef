// The indexer's typed failures: each its exit code and what to do next.
import { expect } from 'chai';
import {
  EmptySourceError,
  InterruptedError,
  LockedError,
  SourceChangedError,
  throwIfAborted,
  UsageError,
} from '../../../indexer/errors.js';
import { EXIT_CODES } from '../../../indexer/exitCodes.js';

describe('indexer/errors', () => {
  it('gives each failure its exit code and a hint', () => {
    expect(new EmptySourceError('x').exitCode).to.equal(EXIT_CODES.invalidRecords);
    expect(new LockedError('x').exitCode).to.equal(EXIT_CODES.locked);
    expect(new UsageError('x').exitCode).to.equal(EXIT_CODES.usage);
    const changed = new SourceChangedError('/data/ppas.ndjson');
    expect(changed.exitCode).to.equal(EXIT_CODES.failure);
    expect(changed.message).to.include('/data/ppas.ndjson');
    expect(changed.hint).to.be.a('string');
  });

  it('stops an aborted run with the signal’s exit code', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(controller.signal)).to.not.throw();
    expect(() => throwIfAborted(undefined)).to.not.throw();
    controller.abort('SIGTERM');
    expect(() => throwIfAborted(controller.signal)).to.throw(InterruptedError, 'interrupted (SIGTERM)');
    expect(new InterruptedError('SIGINT').exitCode).to.equal(130);
    expect(new InterruptedError('SIGTERM').exitCode).to.equal(143);
  });
});
