import { expect } from 'chai';
import { QUERIED_FIELDS, QUERIED_SUB_FIELDS } from '../../../indexContract/fields.js';
import { readIndexDefinition } from '../../../indexContract/mapping.js';

describe('indexContract: the sub-fields queries address', () => {
  it('each exists in mappings/ppas.json as a sub-field of its parent', () => {
    const { mappings } = readIndexDefinition() as unknown as {
      mappings: { properties: Record<string, { fields?: Record<string, unknown> }> };
    };
    for (const path of QUERIED_SUB_FIELDS) {
      const [parent = '', sub = ''] = path.split('.');
      expect(mappings.properties[parent]?.fields ?? {}, path).to.have.property(sub);
    }
  });

  it('each top-level field queries address exists in mappings/ppas.json', () => {
    const { mappings } = readIndexDefinition() as unknown as {
      mappings: { properties: Record<string, unknown> };
    };
    for (const field of QUERIED_FIELDS) expect(mappings.properties, field).to.have.property(field);
  });
});
