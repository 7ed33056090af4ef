// GET /api/v1/ppas/suggest's parameters.
import { expect } from 'chai';
import { parseSuggestQuery } from '../../../../src/params/suggest.js';
import { names, problemsOf } from '../../../support/problems.js';

describe('params/suggest', () => {
  it('takes q (required, trimmed), limit (default 10) and highlight', () => {
    expect(parseSuggestQuery('q=%20kafu%20')).to.deep.equal({ q: 'kafu', limit: 10 });
    expect(parseSuggestQuery('q=kafu&limit=20&highlight=true')).to.deep.equal({
      q: 'kafu',
      limit: 20,
      highlight: true,
    });
    expect(parseSuggestQuery('q=kafu&highlight=false')).to.not.have.property('highlight');
  });

  it('names a missing q, a limit out of bounds and the list’s filters', () => {
    expect(names(problemsOf(() => parseSuggestQuery('')))).to.deep.equal(['q']);
    expect(names(problemsOf(() => parseSuggestQuery('q=a&limit=21')))).to.deep.equal(['limit']);
    expect(names(problemsOf(() => parseSuggestQuery(`q=${'a'.repeat(101)}`)))).to.deep.equal(['q']);
    expect(names(problemsOf(() => parseSuggestQuery('q=a&technology=wind')))).to.deep.equal(['technology']);
  });
});
