import { expect } from 'chai';
import { buildTextQuery, TEXT_FIELDS } from '../../../../src/search/textQuery.js';

function wordQuery(
  word: string,
  {
    droppedLetter = false,
    withoutOneLetter = '',
    last = false,
  }: { droppedLetter?: boolean; withoutOneLetter?: string; last?: boolean } = {},
) {
  const queries: unknown[] = [
    { multi_match: { query: word, type: 'cross_fields', fields: TEXT_FIELDS, operator: 'and' } },
    {
      multi_match: {
        query: word,
        type: 'best_fields',
        fields: TEXT_FIELDS,
        fuzziness: 'AUTO:5,8',
        operator: 'and',
        boost: 0.2,
      },
    },
  ];
  if (droppedLetter) queries.push({ term: { name_dropped_letter: { value: word, boost: 0.6 } } });
  if (withoutOneLetter) queries.push({ match: { name_folded: { query: withoutOneLetter, boost: 1 } } });
  if (last) {
    queries.push({ multi_match: { query: word, type: 'bool_prefix', fields: TEXT_FIELDS, operator: 'and' } });
  }
  return { dis_max: { queries } };
}

describe('api search: text query', () => {
  it('folds q; every word must match (as typed, with a typo, or the last as a prefix); the whole name, its phrase and its start rank higher', () => {
    const query = buildTextQuery('  São   João Solar ');
    expect(query).to.deep.equal({
      bool: {
        should: [
          { term: { 'reference_code.lc': { value: 'são   joão solar', boost: 10_000 } } },
          {
            bool: {
              must: [
                wordQuery('sao'),
                wordQuery('joao', { droppedLetter: true }),
                wordQuery('solar', {
                  droppedLetter: true,
                  withoutOneLetter: 'slar soar solr sola',
                  last: true,
                }),
              ],
              should: [
                {
                  constant_score: { filter: { term: { 'name_folded.exact': 'sao joao solar' } }, boost: 100 },
                },
                {
                  constant_score: {
                    filter: { fuzzy: { 'name_folded.exact': { value: 'sao joao solar', fuzziness: 1 } } },
                    boost: 50,
                  },
                },
                {
                  match: { name_folded: { query: 'sao joao solar', operator: 'and', fuzziness: 'AUTO:5,8' } },
                },
                { multi_match: { query: 'sao joao solar', type: 'phrase', fields: TEXT_FIELDS, boost: 10 } },
                { match_phrase_prefix: { name_folded: { query: 'sao joao solar', boost: 5 } } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(TEXT_FIELDS).to.deep.equal([
      'name_folded^3',
      'reference_code_folded^3',
      'developer_folded',
      'location_folded',
    ]);
  });

  it('leaves only the reference code clause when no word has a letter or digit (it would match everything)', () => {
    expect(buildTextQuery('-- !!')).to.deep.equal({
      bool: {
        should: [{ term: { 'reference_code.lc': { value: '-- !!', boost: 10_000 } } }],
        minimum_should_match: 1,
      },
    });
  });

  it('the exact reference code clause is case-insensitive', () => {
    const should = (buildTextQuery('sn-sol-2018-001') as { bool: { should: unknown[] } }).bool.should;
    expect(should[0]).to.deep.equal({
      term: { 'reference_code.lc': { value: 'sn-sol-2018-001', boost: 10_000 } },
    });
  });
});

describe('api search: text query cost', () => {
  it('a word longer than 30 letters matches exactly: no typo, dropped-letter or extra-letter variants', () => {
    const long = 'a'.repeat(31);
    const wordClauses = JSON.stringify(buildTextQuery(long));
    expect(wordClauses).to.not.contain('fuzz');
    expect(wordClauses).to.not.contain('name_dropped_letter');
    // Beside it, "solar" still tolerates a typo as a word, but no whole-name clause does.
    const mixed = buildTextQuery(`solar ${long}`) as { bool: { should: { bool?: { must: unknown[] } }[] } };
    const words = JSON.stringify(mixed.bool.should[1]?.bool?.must);
    expect(words).to.contain('fuzziness');
    expect(JSON.stringify(buildTextQuery('a'.repeat(30)))).to.contain('fuzziness');
  });
});
