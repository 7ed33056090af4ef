// The builders of the response bodies' schemas.
import { expect } from 'chai';
import { constant, count, nullable, oneOf, record, ref, Type } from '../../../../src/wire/bodySchema.js';

describe('wire/bodySchema', () => {
  it('makes closed objects whose every property is required', () => {
    const schema = record({ a: Type.String(), b: count('b') }) as unknown as Record<string, unknown>;
    expect(schema).to.deep.include({ type: 'object', additionalProperties: false, required: ['a', 'b'] });
  });

  it('makes a nullable, an enum, a constant and a reference by name', () => {
    expect(nullable(Type.Integer())).to.deep.include({ type: ['integer', 'null'] });
    expect(oneOf(['x', 'y'])).to.deep.include({ type: 'string', enum: ['x', 'y'] });
    expect(constant('ready')).to.deep.include({ const: 'ready' });
    expect(ref('Thing', Type.String())).to.deep.include({ $ref: '#/components/schemas/Thing' });
  });
});
