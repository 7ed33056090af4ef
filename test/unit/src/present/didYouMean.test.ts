// The schema of did_you_mean: optional, closed, a non-empty q, a total of at least one, the request's URL.
import { expect } from 'chai';
import { DidYouMeanSchema } from '../../../../src/present/didYouMean.js';

describe('present/didYouMean', () => {
  it('is optional, and when there holds q, a total that found something and a URL', () => {
    const schema = DidYouMeanSchema('PPAs it finds.') as unknown as Record<string, unknown> & {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema).to.deep.include({ additionalProperties: false, required: ['q', 'total', 'url'] });
    expect(schema.properties.total).to.deep.include({ minimum: 1, description: 'PPAs it finds.' });
    expect(schema.properties.q).to.deep.include({ minLength: 1 });
    expect(schema.properties.url).to.deep.include({ format: 'uri' });
  });
});
