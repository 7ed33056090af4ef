import { expect } from 'chai';
import { QUERIED_FIELDS } from '../../../../indexContract/fields.js';
import {
  boostedField,
  DESCRIPTOR_FIELDS,
  RECORD_TEXT_FIELDS,
  TEXT_FIELD_RULES,
  TEXT_FIELD_TABLE,
  TEXT_FIELDS,
  TYPO_FIELDS,
} from '../../../../src/matching/textFields.js';

const unboosted = (field: string): string => field.replace(/\^\d+$/u, '');

describe('matching: the four text fields (textFields.ts)', () => {
  it('looks for q in the folded copies the indexer writes, each among the fields checked against the mapping', () => {
    for (const { folded } of TEXT_FIELD_TABLE) expect(QUERIED_FIELDS, folded).to.include(folded);
    for (const field of DESCRIPTOR_FIELDS) expect(QUERIED_FIELDS, field).to.include(field);
  });

  it('names the fields with their boosts, the project name and the reference code above the others', () => {
    expect(TEXT_FIELDS).to.deep.equal([
      'name_folded^3',
      'reference_code_folded^3',
      'developer_folded',
      'location_folded',
    ]);
    expect(RECORD_TEXT_FIELDS).to.deep.equal(['project_name^3', 'reference_code^3', 'developer', 'location']);
    expect(TEXT_FIELD_TABLE.map(boostedField)).to.deep.equal(TEXT_FIELDS);
  });

  it('looks for typos everywhere but in the reference code', () => {
    expect(TYPO_FIELDS.map(unboosted)).to.deep.equal(['name_folded', 'developer_folded', 'location_folded']);
    expect(TEXT_FIELD_RULES).to.deep.equal({
      project_name: 'name',
      reference_code: 'exact',
      developer: 'text',
      location: 'text',
    });
  });
});
