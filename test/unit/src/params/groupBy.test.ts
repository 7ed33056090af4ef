// The roll-ups' dimensions and parameters, as declared.
import { expect } from 'chai';
import { readIndexDefinition } from '../../../../indexContract/mapping.js';
import { DIMENSION_NAMES, GROUP_DIMENSIONS, GROUP_PARAMETERS } from '../../../../src/params/groupBy.js';

describe('params/groupBy: the roll-ups’ dimensions', () => {
  it('has the contract’s twelve dimensions, each read from a keyword or number field of the mapping', () => {
    expect(DIMENSION_NAMES).to.deep.equal([
      'technology',
      'tariff',
      'country',
      'year',
      'risk_feature',
      'flag',
      'developer',
      'offtaker',
      'offtaker_type',
      'procuring_entity',
      'procurement_method',
      'currency',
    ]);
    const properties = readIndexDefinition().mappings.properties as Record<string, { type?: string }>;
    for (const [name, dimension] of Object.entries(GROUP_DIMENSIONS)) {
      expect(['keyword', 'short'], name).to.include(properties[dimension.field]?.type);
    }
  });

  it('groups the counterparties by name, the codes and tokens as they are', () => {
    const names = Object.entries(GROUP_DIMENSIONS)
      .filter(([, d]) => d.names)
      .map(([name]) => name);
    expect(names).to.deep.equal([
      'developer',
      'offtaker',
      'offtaker_type',
      'procuring_entity',
      'procurement_method',
      'currency',
    ]);
  });

  it('declares group_by with at most two dimensions, group_limit 1–200 (20), group_sort and format defaults', () => {
    const groupBy = GROUP_PARAMETERS.group_by as unknown as { maxItems: number; items: { enum: string[] } };
    expect(groupBy.maxItems).to.equal(2);
    expect(groupBy.items.enum).to.deep.equal(DIMENSION_NAMES);
    expect(GROUP_PARAMETERS.group_limit).to.deep.include({ minimum: 1, maximum: 200, default: 20 });
    expect(GROUP_PARAMETERS.group_sort).to.deep.include({ default: 'capacity_desc' });
    expect(GROUP_PARAMETERS.format).to.deep.include({ default: 'json' });
  });
});
