import { expect } from 'chai';
import { isRemovedResponseField, typeChangeBreaks, typesAt } from '../../../../tools/openapi/missedBreaks.js';
import type { DiffLocation } from '../../../../tools/openapi/diffLocation.js';

const at = (side: DiffLocation['side'], keyword: DiffLocation['keyword'] = []): DiffLocation => ({
  operation: 'GET /items',
  path: '/items',
  side,
  where: '',
  keyword,
  schemaPath: [],
  names: [],
  field: '',
});

describe('openapi: the breaks api-smart-diff does not count', () => {
  it('a property removed from a response body, not from a request', () => {
    const removed = {
      action: 'remove' as const,
      path: ['paths', '/items', 'get', 'properties', 'developer'],
    };
    expect(isRemovedResponseField(removed, at('response'))).to.equal(true);
    expect(isRemovedResponseField(removed, at('request'))).to.equal(false);
    expect(isRemovedResponseField({ ...removed, action: 'add' }, at('response'))).to.equal(false);
    expect(isRemovedResponseField(removed, at('response', ['maximum']))).to.equal(false);
  });

  it('a type a client sends no longer taken; one it receives it did not expect', () => {
    const cases: [DiffLocation['side'], string[], string[], boolean][] = [
      ['request', ['integer'], ['string'], true],
      ['request', ['number'], ['integer'], true],
      ['request', [], ['string'], true],
      ['request', ['integer'], ['number'], false],
      ['request', ['string'], ['string', 'null'], false],
      ['request', ['string'], [], false],
      ['response', ['number'], ['number', 'null'], true],
      ['response', ['integer', 'null'], ['string', 'null'], true],
      ['response', ['string'], [], true],
      ['response', ['string', 'null'], ['string'], false],
      ['response', ['number'], ['integer'], false],
    ];
    for (const [side, before, after, breaks] of cases) {
      expect(typeChangeBreaks(side, { before, after }), `${side} ${before} → ${after}`).to.equal(breaks);
    }
  });

  it('reads a schema’s types before and after from the merged document', () => {
    const meta = Symbol('diff');
    const whole = { type: ['number', 'null'], [meta]: { type: { action: 'replace', replaced: 'number' } } };
    expect(typesAt({ s: whole }, ['s'], meta)).to.deep.equal({
      before: ['number'],
      after: ['number', 'null'],
    });
    const items = Object.assign(['string', 'null', 'integer'], {
      [meta]: { 0: { action: 'replace', replaced: 'integer' }, 2: { action: 'remove' } },
    });
    expect(typesAt({ s: { type: items } }, ['s'], meta)).to.deep.equal({
      before: ['integer', 'null', 'integer'],
      after: ['string', 'null'],
    });
    const added = { type: 'string', [meta]: { type: { action: 'add' } } };
    expect(typesAt({ s: added }, ['s'], meta)).to.deep.equal({ before: [], after: ['string'] });
  });
});
