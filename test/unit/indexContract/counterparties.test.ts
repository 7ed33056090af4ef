// The consortium rule and the group key, shared by the roll-ups and OCDS's suppliers.
import { expect } from 'chai';
import { consortiumMembers, groupKey } from '../../../indexContract/counterparties.js';

describe('indexContract/counterparties: consortium members and group keys', () => {
  it('splits at ";" and at "/" unless a single letter stands on both sides', () => {
    const cases: [string, string[]][] = [
      ['Engie / Meridiam', ['Engie', 'Meridiam']],
      ['Engie/Meridiam', ['Engie', 'Meridiam']],
      ['Vestas Wind Systems A/S', ['Vestas Wind Systems A/S']],
      ['Foo S/A / Bar N/A', ['Foo S/A', 'Bar N/A']],
      ['X/Y Power', ['X/Y Power']],
      ['AB/CD', ['AB', 'CD']],
      ['Alpha; Beta ;Gamma', ['Alpha', 'Beta', 'Gamma']],
      ['Ørsted A/S / EDF', ['Ørsted A/S', 'EDF']],
      ['Solo Power', ['Solo Power']],
    ];
    for (const [developer, members] of cases)
      expect(consortiumMembers(developer), developer).to.deep.equal(members);
  });

  it('drops a trailing share in parentheses, blank parts, and a member named twice (the first spelling kept)', () => {
    expect(consortiumMembers('Meridiam (54.9%) / Engie (45,1 %)')).to.deep.equal(['Meridiam', 'Engie']);
    expect(consortiumMembers('Alpha ; ; / Beta')).to.deep.equal(['Alpha', 'Beta']);
    expect(consortiumMembers('Acme Énergie / ACME ENERGIE')).to.deep.equal(['Acme Énergie']);
    expect(consortiumMembers('Alpha (Holdings) / Beta')).to.deep.equal(['Alpha (Holdings)', 'Beta']);
  });

  it('keys a name by its folded form, runs of spaces aside', () => {
    expect(groupKey('  SÃO   Énergie ')).to.equal('sao energie');
    expect(groupKey('Sénélec')).to.equal(groupKey('SENELEC'));
    expect(groupKey('Engie SA')).to.not.equal(groupKey('Engie S.A.'));
  });
});
