// The schema of did_you_mean: optional; an offer (closed, a non-empty q, a total of at least one, the request's URL),
// or null when none was looked for under pressure (issue 72).
import { expect } from 'chai';
import { DidYouMeanSchema } from '../../../../src/present/didYouMean.js';

describe('present/didYouMean', () => {
  const schema = DidYouMeanSchema('PPAs it finds.') as unknown as {
    anyOf: (Record<string, unknown> & { properties: Record<string, Record<string, unknown>> })[];
  };

  it('is optional, and an offer holds q, a total that found something and a URL', () => {
    const offer = schema.anyOf.find((each) => each.type === 'object')!;
    expect(offer).to.deep.include({ additionalProperties: false, required: ['q', 'total', 'url'] });
    expect(offer.properties.total).to.deep.include({ minimum: 1, description: 'PPAs it finds.' });
    expect(offer.properties.q).to.deep.include({ minLength: 1 });
    expect(offer.properties.url).to.deep.include({ format: 'uri' });
  });

  it('may be null, and says what null means (none looked for: the instance was busy)', () => {
    const none = schema.anyOf.find((each) => each.type === 'null');
    expect(none).to.have.property('description').that.match(/busy/);
    expect(schema.anyOf).to.have.length(2);
  });
});
