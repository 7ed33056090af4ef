// What is derived from a list of filter declarations, over a list of two made up for the test.
import { expect } from 'chai';
import Type from 'typebox';
import type { InvalidParam } from '../../../../src/http/problem.js';
import {
  clausesOf,
  cursorBindingOf,
  defineFilter,
  parametersOf,
  readFiltersOf,
  repeatableOf,
  wordsOf,
} from '../../../../src/params/listFilter.js';

const list = {
  colour: defineFilter({
    name: 'colour[]',
    aliases: ['colour'],
    schema: Type.Array(Type.String()),
    read: (values: string[]) => values,
    clauses: (values: string[]) => [{ terms: { colour: values } }],
    bindsCursor: true,
    words: (values: string[]) => [`colour ${values.join(' or ')}`],
    doc: { type: 'tokens', meaning: 'colour' },
  }),
  size: defineFilter({
    name: 'size',
    schema: Type.Integer(),
    read: (size: number, problems: InvalidParam[]) => {
      if (size === 13) {
        problems.push({ name: 'size', reason: 'unlucky' });
        return undefined;
      }
      return size;
    },
    bindsCursor: false,
    words: (size: number) => [`size ${size}`],
    check: (filters) =>
      filters.size === 7 && filters.colour ? [{ name: 'size', reason: 'not with colour' }] : [],
    doc: { type: 'integer', meaning: 'size' },
  }),
};

describe('params/listFilter: what a list of filter declarations derives', () => {
  it('makes the optional query parameters under their names, and the repeatable ones with their aliases', () => {
    const parameters = parametersOf(list) as Record<string, unknown>;
    expect(Object.keys(parameters)).to.deep.equal(['colour[]', 'size']);
    expect(repeatableOf(list)).to.deep.equal({ 'colour[]': ['colour'] });
  });

  it('reads each filter under its key, a problem of one value alone or of two together added', () => {
    const problems: InvalidParam[] = [];
    expect(readFiltersOf(list, { 'colour[]': ['red'], size: 3 }, problems)).to.deep.equal({
      colour: ['red'],
      size: 3,
    });
    expect(readFiltersOf(list, { size: 13 }, problems)).to.deep.equal({});
    readFiltersOf(list, { 'colour[]': ['red'], size: 7 }, problems);
    expect(problems).to.deep.equal([
      { name: 'size', reason: 'unlucky' },
      { name: 'size', reason: 'not with colour' },
    ]);
  });

  it('gives the clauses of the filters set, marked with their facet; a filter without clauses adds none', () => {
    const facetOf = (key: string) => (key === 'colour' ? ('technology' as const) : undefined);
    expect(clausesOf(list, { colour: ['red'], size: 3 }, facetOf)).to.deep.equal([
      { clause: { terms: { colour: ['red'] } }, facet: 'technology' },
    ]);
    expect(clausesOf(list, {}, facetOf)).to.deep.equal([]);
  });

  it('binds a cursor to the filters that say so, in a canonical form', () => {
    expect(cursorBindingOf(list, { colour: ['b', 'a'], size: 3 })).to.deep.equal([['a', 'b']]);
    expect(cursorBindingOf(list, {})).to.deep.equal([null]);
  });

  it('says the filters set in words, or null', () => {
    expect(wordsOf(list, { colour: ['red', 'blue'], size: 3 })).to.equal('colour red or blue, size 3');
    expect(wordsOf(list, {})).to.equal(null);
  });
});
