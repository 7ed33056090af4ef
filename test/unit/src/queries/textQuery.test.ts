import { expect } from 'chai';
import { QUERIED_FIELDS, QUERIED_SUB_FIELDS } from '../../../../indexContract/fields.js';
import { DESCRIPTOR_FIELDS, TEXT_FIELDS } from '../../../../src/matching/textFields.js';
import { buildSuggestSearch } from '../../../../src/queries/suggestSearch.js';
import { buildTextQuery } from '../../../../src/queries/textQuery.js';

function wordQuery(
  word: string,
  {
    droppedLetter = false,
    withoutOneLetter = '',
    last = false,
    alternatives = [],
  }: { droppedLetter?: boolean; withoutOneLetter?: string; last?: boolean; alternatives?: unknown[] } = {},
) {
  const queries: unknown[] = [
    { multi_match: { query: word, type: 'cross_fields', fields: TEXT_FIELDS, operator: 'and' } },
    // The canonical words (numerals, abbreviations, punctuation) and the joined/split alternatives.
    { match_phrase: { name_canonical: { query: word, boost: 3 } } },
    ...alternatives,
    {
      multi_match: {
        query: word,
        type: 'best_fields',
        // Typos everywhere but in the reference code (issue 47).
        fields: ['name_folded^3', 'developer_folded', 'location_folded'],
        fuzziness: 'AUTO:5,8',
        operator: 'and',
        boost: 0.2,
      },
    },
  ];
  if (droppedLetter) {
    queries.push({ term: { name_dropped_letter: { value: word, boost: 0.6 } } });
    queries.push({ term: { name_without_first_letter: { value: word, boost: 0.6 } } });
  }
  if (withoutOneLetter) queries.push({ match: { name_folded: { query: withoutOneLetter, boost: 1 } } });
  if (last) {
    queries.push({ multi_match: { query: word, type: 'bool_prefix', fields: TEXT_FIELDS, operator: 'and' } });
  }
  return { dis_max: { queries } };
}

/** The word matched by the technology's words or the country's names: a constant below a name word. */
function descriptor(query: string, last = false) {
  const type = last ? 'bool_prefix' : 'best_fields';
  return {
    constant_score: {
      filter: {
        multi_match: { query, type, fields: ['technology_words', 'country_names'], operator: 'and' },
      },
      boost: 1,
    },
  };
}

describe('api search: text query', () => {
  it('folds q; every word must match (as typed, in canonical form, joined or split, by the technology or the country, with a typo, or the last as a prefix); the whole name, its phrase and its start rank higher', () => {
    const joined = (field: string, value: string) => ({ term: { [field]: { value, boost: 3 } } });
    const query = buildTextQuery('  São   João Solar ');
    expect(query).to.deep.equal({
      bool: {
        should: [
          { term: { 'reference_code.lc': { value: 'são   joão solar', boost: 10_000 } } },
          {
            bool: {
              must: [
                wordQuery('sao', {
                  alternatives: [joined('name_canonical', 'saojoao'), descriptor('sao')],
                }),
                wordQuery('joao', {
                  droppedLetter: true,
                  alternatives: [
                    joined('name_canonical', 'saojoao'),
                    joined('name_canonical', 'joaosolar'),
                    descriptor('joao'),
                  ],
                }),
                wordQuery('solar', {
                  droppedLetter: true,
                  withoutOneLetter: 'slar soar solr sola',
                  last: true,
                  alternatives: [
                    joined('name_joined', 'solar'),
                    joined('name_canonical', 'joaosolar'),
                    descriptor('solar', true),
                  ],
                }),
              ],
              should: [
                {
                  constant_score: { filter: { term: { 'name_folded.exact': 'sao joao solar' } }, boost: 100 },
                },
                {
                  constant_score: {
                    filter: {
                      fuzzy: { name_compact: { value: 'saojoaosolar', fuzziness: 1, prefix_length: 1 } },
                    },
                    boost: 50,
                  },
                },
                { constant_score: { filter: { prefix: { name_compact: 'saojoaosolar' } }, boost: 60 } },
                {
                  match: {
                    name_canonical: {
                      query: 'sao joao solar',
                      operator: 'and',
                      fuzziness: 'AUTO:5,8',
                      prefix_length: 2,
                    },
                  },
                },
                { multi_match: { query: 'sao joao solar', type: 'phrase', fields: TEXT_FIELDS, boost: 10 } },
                { match_phrase_prefix: { name_folded: { query: 'sao joao solar', boost: 5 } } },
              ],
            },
          },
          { constant_score: { filter: { term: { name_compact: 'saojoaosolar' } }, boost: 100 } },
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

describe('api search: text query, written another way (issue 19)', () => {
  const json = (q: string): string => JSON.stringify(buildTextQuery(q));

  it('looks numerals, abbreviations and dotted initials up by their canonical words', () => {
    expect(json('Kafue Gorge II')).to.contain('{"match_phrase":{"name_canonical":{"query":"2","boost":3}}}');
    expect(json('Kafue HPP')).to.contain(
      '{"match_phrase":{"name_canonical":{"query":"hydro power plant","boost":3}}}',
    );
    expect(json('Central Termica P.E.')).to.contain(
      '{"match_phrase":{"name_canonical":{"query":"pe","boost":3}}}',
    );
    // The whole name on its compact form, whatever the spacing and notation.
    expect(json('KafueGorge II PV')).to.contain('{"term":{"name_compact":"kafuegorge2photovoltaic"}}');
  });

  it('tries a typed word as two name words joined, and two typed words as one name word', () => {
    expect(json('KafueGorge South')).to.contain('{"term":{"name_joined":{"value":"kafuegorge","boost":3}}}');
    expect(json('Hydro electric')).to.contain(
      '{"term":{"name_canonical":{"value":"hydroelectric","boost":3}}}',
    );
    // Too short to be worth a lookup: "o" + "k".
    expect(json('o k')).to.not.contain('{"term":{"name_canonical":{"value":"ok"');
  });

  it('two typos: 6–7-letter words one edit from a dropped-letter spelling; no two-edit whole-name clause', () => {
    expect(json('Kafue Gorge Hydroelectric')).to.not.contain('"fuzziness":2');
    expect(json('Naxvash')).to.contain('{"fuzzy":{"name_dropped_letter":{"value":"naxvash"');
    expect(json('Kpone')).to.not.contain('{"fuzzy":{"name_dropped_letter"');
  });
});

describe('api search: text query, technology and country words, first-letter typos (issue 32)', () => {
  const words = (q: string): unknown[] =>
    (buildTextQuery(q) as { bool: { should: { bool?: { must: unknown[] } }[] } }).bool.should[1]?.bool
      ?.must ?? [];
  const json = (q: string): string => JSON.stringify(buildTextQuery(q));

  it('every word may match the technology or the country, as typed (the last also as a prefix), never by a typo', () => {
    const [tobel, hydro] = words('Tobel Hydro') as { dis_max: { queries: unknown[] } }[];
    expect(tobel?.dis_max.queries).to.deep.include(descriptor('tobel'));
    expect(hydro?.dis_max.queries).to.deep.include(descriptor('hydro', true));
    // A fuzzy clause on these fields cost a quarter more per query (tuning log).
    const clauses = [tobel, hydro]
      .flatMap((word) => word?.dis_max.queries ?? [])
      .map((c) => JSON.stringify(c));
    const onDescriptors = clauses.filter((clause) => /technology_words|country_names/.test(clause));
    expect(onDescriptors).to.have.length(2);
    for (const clause of onDescriptors) expect(clause).to.not.contain('fuzz');
    expect(DESCRIPTOR_FIELDS).to.deep.equal(['technology_words', 'country_names']);
  });

  it('cuts the word at punctuation as the indexer cuts country names: "d\'ivoire" is d and ivoire', () => {
    const [, ivoire] = words("Cote d'Ivoire") as { dis_max: { queries: unknown[] } }[];
    expect(ivoire?.dis_max.queries).to.deep.include(descriptor('d ivoire', true));
  });

  it('looks a typed word of four letters or more up among the name words without their first letter', () => {
    expect(json('Olar Park')).to.contain(
      '{"term":{"name_without_first_letter":{"value":"olar","boost":0.6}}}',
    );
    expect(json('Lan Park')).to.not.contain('"value":"lan","boost":0.6');
  });
});

describe('api search: text query, precise search (issue 59)', () => {
  type Bool = { must?: unknown[]; must_not?: unknown[]; should?: unknown[] };
  /** The operator reading of q (beside it, the pasted-name clause: issue 69). */
  const boolOf = (q: string) =>
    (buildTextQuery(q) as { bool: { should: [{ bool: Bool }, unknown] } }).bool.should[0].bool;
  const EXCLUSION_FIELDS = [...TEXT_FIELDS, ...DESCRIPTOR_FIELDS];

  it('a q without operators is the query it always was', () => {
    // The plain path: the reference code, the words and the whole-name bonuses, at the top.
    const plain = buildTextQuery('kafue gorge') as {
      bool: { should: unknown[]; minimum_should_match: number };
    };
    expect(plain.bool.minimum_should_match).to.equal(1);
    expect(JSON.stringify(plain)).to.include('reference_code.lc');
  });

  it('a phrase must match as a phrase in one of the four fields, with no typo or other spelling', () => {
    expect(boolOf('"Kafue Gorge"')).to.deep.equal({
      must: [{ multi_match: { query: 'kafue gorge', type: 'phrase', fields: TEXT_FIELDS } }],
    });
  });

  it('a word or a phrase left out goes to must_not, looked for in the fields and the descriptors, as a whole word', () => {
    const bool = boolOf('hydro -Sinohydro -"sino hydro"');
    expect(bool.must_not).to.deep.equal([
      { multi_match: { query: 'sinohydro', fields: EXCLUSION_FIELDS, operator: 'and' } },
      // The descriptor fields keep no positions: there a phrase is all its words.
      { multi_match: { query: 'sino hydro', type: 'phrase', fields: TEXT_FIELDS } },
      { multi_match: { query: 'sino hydro', fields: DESCRIPTOR_FIELDS, operator: 'and' } },
    ]);
    // The word looked for is as forgiving as ever (a typo clause among its alternatives).
    expect(JSON.stringify(bool.must)).to.include('"fuzziness":"AUTO:5,8"');
    expect(JSON.stringify(bool.must_not)).to.not.include('fuzziness');
  });

  it('a q that only leaves out matches every PPA but those', () => {
    expect(boolOf('-coal')).to.deep.equal({
      must: [],
      must_not: [{ multi_match: { query: 'coal', fields: EXCLUSION_FIELDS, operator: 'and' } }],
    });
  });

  it('alternatives: one clause that any of them satisfies, each forgiving, the last group as a prefix', () => {
    const [group] = boolOf('ghana solar OR wind').must!.slice(-1) as [{ dis_max: { queries: unknown[] } }];
    expect(group.dis_max.queries).to.have.length(2);
    const [solar, wind] = group.dis_max.queries.map((query) => JSON.stringify(query));
    for (const alternative of [solar!, wind!]) {
      expect(alternative).to.include('"type":"bool_prefix"');
      expect(alternative).to.include('technology_words');
    }
  });

  it('a qualified word is looked for in its field alone: the developer by the fuzziness, the code as typed', () => {
    const developer = JSON.stringify(boolOf('developer:acme').must);
    expect(developer).to.include('"fields":["developer_folded"]');
    expect(developer).to.not.match(/name_folded|location_folded|technology_words|country_names/);
    const code = JSON.stringify(boolOf('code:ZM-HYD-2008 solar').must);
    expect(code).to.include('"reference_code.lc":{"value":"zm-hyd-2008"');
    expect(code).to.not.include('"fields":["reference_code_folded^3"],"fuzziness"');
    const name = JSON.stringify(boolOf('name:solr').must);
    expect(name).to.include('name_dropped_letter');
    expect(name).to.not.match(/developer_folded|technology_words/);
    expect(boolOf('-developer:acme x').must_not).to.deep.equal([
      { multi_match: { query: 'acme', fields: ['developer_folded'], operator: 'and' } },
    ]);
  });
});

describe('api search: text query, a pasted name (issue 69)', () => {
  const pasted = (names: string[], code: string) => ({
    constant_score: {
      filter: {
        bool: {
          should: [{ terms: { 'name_folded.exact': names } }, { term: { 'reference_code.lc': code } }],
        },
      },
      boost: 100_000,
    },
  });

  it('a q with operators also finds, first, the PPA whose whole name or code it is as written', () => {
    const query = buildTextQuery('  PLTU -Jeneponto  I & II ') as {
      bool: { should: unknown[]; minimum_should_match: number };
    };
    expect(query.bool.minimum_should_match).to.equal(1);
    expect(query.bool.should).to.have.length(2);
    // Folded and trimmed, as typed and with its spaces collapsed; the code case aside.
    expect(query.bool.should[1]).to.deep.equal(
      pasted(['pltu -jeneponto  i & ii', 'pltu -jeneponto i & ii'], 'pltu -jeneponto  i & ii'),
    );
    expect(
      (buildTextQuery('"Blue Lake" GES') as { bool: { should: unknown[] } }).bool.should[1],
    ).to.deep.equal(pasted(['"blue lake" ges'], '"blue lake" ges'));
  });

  it('a plain q keeps its own whole-name and code clauses, and no pasted-name clause', () => {
    for (const q of ['Kafue Gorge', 'Run-of-River Hydro', 'ZM-HYD-2008'])
      expect(JSON.stringify(buildTextQuery(q)), q).to.not.include('"boost":100000');
  });
});

/** Every field a query addresses: the keys of its field-level clauses, and multi_match's fields (boosts aside). */
function addressedFields(query: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(query)) {
    for (const part of query) addressedFields(part, into);
  } else if (query !== null && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      if (
        ['term', 'terms', 'fuzzy', 'match', 'match_phrase', 'match_phrase_prefix', 'prefix'].includes(key)
      ) {
        for (const field of Object.keys(value as object)) into.add(field);
      } else if (key === 'fields' && Array.isArray(value)) {
        for (const field of value as string[]) into.add(field.replace(/\^[\d.]+$/u, ''));
      } else {
        addressedFields(value, into);
      }
    }
  }
  return into;
}

describe('api search: the fields the text query and suggest address', () => {
  it('are each declared in indexContract/fields.ts, in the lists checked against the mapping', () => {
    const fields = new Set<string>();
    for (const q of [
      'Kafue Gorge PV II',
      'kafuegorge hydro electric naxvash',
      'slar olar viitoria',
      '"kafue gorge" -solar developer:zesco code:ZM-1 name:kafu location:lusaka a OR b',
    ]) {
      addressedFields(buildTextQuery(q), fields);
    }
    for (const q of ['kafue gor', 'powr station', 'solar photovoltaic parks']) {
      addressedFields(buildSuggestSearch({ q, limit: 10 }).query, fields);
    }
    // The walk reads every kind of clause: the dropped-letter lookups among them.
    expect(fields).to.include.keys(
      'name_dropped_letter',
      'name_prefixes',
      'name_folded.exact',
      'technology_words',
    );
    const declared = new Set<string>([...QUERIED_FIELDS, ...QUERIED_SUB_FIELDS]);
    for (const field of fields) {
      if (field === 'active') continue; // the suggest's filter: a field of the record, not derived
      expect(declared.has(field), field).to.equal(true);
    }
  });
});
