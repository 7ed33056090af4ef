import { expect } from 'chai';
import type { ReconcileQuery } from '../../../../src/params/reconcile.js';
import { rankCandidates, scoreOf, type CandidateFacts } from '../../../../src/present/reconcileCandidates.js';

const TYPE = { id: 'party', name: 'Party' };

function facts(id: string, names: string[], country = 'SN'): CandidateFacts {
  return {
    id,
    name: names[0] ?? id,
    description: id,
    names,
    agrees: (pid, values) => pid === 'country' && values.some(({ text }) => text === country),
  };
}

const query = (text: string, extra: Partial<ReconcileQuery> = {}): ReconcileQuery => ({
  key: 'q0',
  query: text,
  limit: 5,
  properties: [],
  ...extra,
});

describe('present/reconcileCandidates: scores from features, match by the contract’s rule', () => {
  it('scores 100 × name_similarity, halved per property not agreed with', () => {
    expect(scoreOf([{ id: 'name_similarity', value: 0.9 }])).to.equal(90);
    expect(
      scoreOf([
        { id: 'name_similarity', value: 0.9 },
        { id: 'country_match', value: false },
        { id: 'role_match', value: true },
      ]),
    ).to.equal(45);
  });

  it('matches the one candidate named by the query (case, accents, spaces aside), best first', () => {
    const gathered = [facts('other', ['Acme Solar']), facts('acme', ['ACME Power', 'Acme Pwr'])];
    const [first, second] = rankCandidates(query('  acme   power '), gathered, TYPE);
    expect(first).to.deep.include({ id: 'acme', match: true, score: 100, type: [TYPE] });
    expect(first?.features).to.deep.equal([{ id: 'name_similarity', value: 1 }]);
    expect(second?.match).to.equal(false);
    expect(rankCandidates(query('Acme Pwr'), gathered, TYPE)[0]).to.deep.include({ id: 'acme', match: true });
  });

  it('no match when another candidate is named too, the name differs (a legal form, a typo), or a property disagrees', () => {
    const twins = [facts('a', ['Acme Power']), facts('b', ['ACME POWER'])];
    expect(rankCandidates(query('Acme Power'), twins, TYPE).map((c) => c.match)).to.deep.equal([
      false,
      false,
    ]);
    const one = [facts('a', ['Acme Power'])];
    const legal = rankCandidates(query('Acme Power Ltd'), one, TYPE)[0];
    expect(legal).to.deep.include({ match: false, score: 100 });
    expect(rankCandidates(query('Acme Powre'), one, TYPE)[0]?.match).to.equal(false);
    const properties = [{ pid: 'country', values: [{ text: 'ML' }] }];
    const disagreeing = rankCandidates(query('Acme Power', { properties }), one, TYPE)[0];
    expect(disagreeing).to.deep.include({ match: false, score: 50 });
    expect(disagreeing?.features).to.deep.equal([
      { id: 'name_similarity', value: 1 },
      { id: 'country_match', value: false },
    ]);
  });

  it('orders by score, keeps the gathered order on ties, stops at the limit; another type has none', () => {
    const gathered = [
      facts('far', ['Zeta Wind']),
      facts('near2', ['Acme Powr']),
      facts('near1', ['Acme Powe']),
    ];
    const ranked = rankCandidates(query('Acme Power', { limit: 2 }), gathered, TYPE);
    expect(ranked.map((c) => c.id)).to.deep.equal(['near2', 'near1']);
    expect(rankCandidates(query('Acme', { types: ['ppa'] }), gathered, TYPE)).to.deep.equal([]);
    expect(rankCandidates(query('Acme', { types: ['ppa', 'party'] }), gathered, TYPE)).to.have.length(3);
  });
});
