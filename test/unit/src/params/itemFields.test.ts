// `fields`: the item fields a client may choose, in item order, slug always among them.
import { expect } from 'chai';
import { fieldsParameter, ITEM_FIELDS, toItemFields } from '../../../../src/params/itemFields.js';

describe('params/itemFields: the fields parameter', () => {
  it('keeps the chosen fields in item order, each once, slug always', () => {
    expect(toItemFields(['capacity_mw', 'project_name', 'capacity_mw'])).to.deep.equal([
      'slug',
      ...ITEM_FIELDS.filter((field) => field === 'project_name' || field === 'capacity_mw'),
    ]);
    expect(toItemFields(['url'])).to.deep.equal(['slug']);
  });

  it('names every item field and url in its schema, and adds what an operation says', () => {
    const schema = fieldsParameter(' Default: every field.') as unknown as {
      items: { enum: string[] };
      description: string;
    };
    expect(schema.items.enum).to.deep.equal([...ITEM_FIELDS, 'url']);
    expect(schema.description.endsWith(' Default: every field.')).to.equal(true);
  });
});
