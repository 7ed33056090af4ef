import { expect } from 'chai';
import type { InvalidParam } from '../../../../src/http/problem.js';
import {
  DEFAULT_CANDIDATES,
  readExtendQuery,
  readQueryBatch,
  reconcileSuggestQuery,
  serviceQuery,
} from '../../../../src/params/reconcile.js';

const vocabulary = { queryProperties: ['country', 'role'], extendProperties: ['ppas', 'roles'] };

function batch(value: unknown): { queries: ReturnType<typeof readQueryBatch>; problems: InvalidParam[] } {
  const problems: InvalidParam[] = [];
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { queries: readQueryBatch(text, vocabulary, problems), problems };
}

describe('params/reconcile: query batches and data extension queries', () => {
  it('reads a 0.2 batch in its order: the query trimmed, limit defaulted, types and property values as lists', () => {
    const { queries, problems } = batch({
      b: { query: ' Acme Power ', type: 'party', properties: [{ pid: 'country', v: ['SN', 'ML'] }] },
      a: {
        query: 'Kenya Power',
        limit: 25,
        type: ['party', 'x'],
        properties: [{ pid: 'role', v: { id: 'offtaker' } }],
      },
    });
    expect(problems).to.deep.equal([]);
    expect(queries).to.deep.equal([
      {
        key: 'b',
        query: 'Acme Power',
        limit: DEFAULT_CANDIDATES,
        types: ['party'],
        properties: [{ pid: 'country', values: [{ text: 'SN' }, { text: 'ML' }] }],
      },
      {
        key: 'a',
        query: 'Kenya Power',
        limit: 25,
        types: ['party', 'x'],
        properties: [{ pid: 'role', values: [{ text: 'offtaker', id: 'offtaker' }] }],
      },
    ]);
  });

  it('names queries for every malformed batch: not JSON, not 0.2, too many, out of bounds, an unknown property', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`q${i}`, { query: 'a' }]));
    for (const value of [
      '{',
      '[1]',
      { q: { query: 'a', extra: true } },
      { q: { limit: 3 } },
      {},
      many,
      { q: { query: 'x'.repeat(201) } },
      { q: { query: '  ' } },
      { q: { query: 'a', limit: 26 } },
      { q: { query: 'a', limit: 2.5 } },
      { q: { query: 'a', properties: [{ pid: 'year', v: '2018' }] } },
    ]) {
      const { problems } = batch(value);
      expect(problems.length, JSON.stringify(value).slice(0, 40)).to.be.greaterThan(0);
      expect(new Set(problems.map((problem) => problem.name))).to.deep.equal(new Set(['queries']));
    }
    expect(batch({ q: { query: 'x'.repeat(200) } }).problems).to.deep.equal([]);
  });

  it('reads a data extension query; an unknown column or too many ids name extend', () => {
    const problems: InvalidParam[] = [];
    const text = JSON.stringify({
      ids: ['a', 'b'],
      properties: [{ id: 'ppas' }, { id: 'roles', settings: {} }],
    });
    expect(readExtendQuery(text, vocabulary, problems)).to.deep.equal({
      ids: ['a', 'b'],
      properties: ['ppas', 'roles'],
    });
    expect(problems).to.deep.equal([]);
    for (const wrong of [
      { ids: ['a'], properties: [{ id: 'colour' }] },
      { ids: Array.from({ length: 51 }, (_, i) => `p${i}`), properties: [{ id: 'ppas' }] },
      { ids: 'a', properties: [] },
    ]) {
      const found: InvalidParam[] = [];
      readExtendQuery(JSON.stringify(wrong), vocabulary, found);
      expect(found.map((problem) => problem.name)).to.include('extend');
    }
  });

  it('the root: the manifest without parameters, a batch with queries, an extension with extend, never both', () => {
    const root = serviceQuery(vocabulary);
    expect(root.parse('')).to.deep.equal({ kind: 'manifest' });
    const queries = encodeURIComponent(JSON.stringify({ q: { query: 'a' } }));
    expect(root.parse(`queries=${queries}`)).to.have.property('kind', 'batch');
    const extend = encodeURIComponent(JSON.stringify({ ids: [], properties: [] }));
    expect(root.parse(`extend=${extend}`)).to.have.property('kind', 'extend');
    expect(() => root.parse(`queries=${queries}&extend=${extend}`)).to.throw('Invalid parameters: extend');
    expect(() => root.parse('queries=%7B')).to.throw('Invalid parameters: queries');
  });

  it('suggest: prefix required, cursor and limit bounded, type and type_strict taken', () => {
    expect(reconcileSuggestQuery.parse('prefix=ac&type=party&type_strict=should')).to.deep.equal({
      prefix: 'ac',
      cursor: 0,
      limit: 10,
      type: 'party',
    });
    expect(() => reconcileSuggestQuery.parse('cursor=1')).to.throw('prefix');
    expect(() => reconcileSuggestQuery.parse('prefix=a&limit=26')).to.throw('limit');
  });
});
