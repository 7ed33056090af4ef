// The invalid parameters a parse function refuses, for the parameter tests.
import { expect } from 'chai';
import { BadRequestError, type InvalidParam } from '../../src/http/problem.js';

/** The problems of the BadRequestError `parse` throws (fails the test when it throws none or another error). */
export function problemsOf(parse: () => unknown): InvalidParam[] {
  try {
    parse();
  } catch (error) {
    expect(error).to.be.instanceOf(BadRequestError);
    return (error as BadRequestError).invalidParams ?? [];
  }
  throw new Error('expected a BadRequestError');
}

/** The parameter names of the problems, sorted. */
export const names = (problems: InvalidParam[]) => problems.map((problem) => problem.name).sort();
