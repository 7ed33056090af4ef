// Full-text relevance for `q`, kept apart so it can be tuned against the relevance suite without touching the
// rest of the query. Documents hold folded copies of the text (indexer/document.ts); the query is folded the
// same way, so "Sao Joao" meets "São João" without an asciifolding filter in Elasticsearch.
import type { estypes } from '@elastic/elasticsearch';
import { foldText } from '../text/fold.js';

type Query = estypes.QueryDslQueryContainer;

/** Project name and reference code above developer and location. */
export const TEXT_FIELDS = [
  'name_folded^3',
  'reference_code_folded^3',
  'developer_folded',
  'location_folded',
];
/** No typo allowed under 5 letters, one from 5 (two from 8). */
export const FUZZINESS = 'AUTO:5,8';
export const PHRASE_BOOST = 10;
/** Large enough that an exact reference code outranks any combination of the other clauses. */
export const REFERENCE_CODE_BOOST = 10_000;
/** The cross-field clause: weaker than all words within one field, it only widens recall. */
export const CROSS_FIELD_BOOST = 0.5;

export function buildTextQuery(q: string): Query {
  const folded = foldText(q.trim());
  const should: Query[] = [
    { term: { 'reference_code.lc': { value: q.trim().toLowerCase(), boost: REFERENCE_CODE_BOOST } } },
    { multi_match: { query: folded, type: 'phrase', fields: TEXT_FIELDS, boost: PHRASE_BOOST } },
    {
      multi_match: {
        query: folded,
        type: 'best_fields',
        fields: TEXT_FIELDS,
        fuzziness: FUZZINESS,
        operator: 'and',
      },
    },
    { multi_match: { query: folded, type: 'bool_prefix', fields: TEXT_FIELDS, operator: 'and' } },
  ];
  const crossField = buildCrossFieldQuery(folded);
  if (crossField) should.push(crossField);
  return { bool: { should, minimum_should_match: 1 } };
}

/**
 * Every word somewhere in the four fields ("kahone engie": name + developer), each word typo-tolerant and the
 * last one also a prefix. Words without a letter or digit produce no token and are left out: they would
 * otherwise match nothing and sink the whole clause.
 */
function buildCrossFieldQuery(folded: string): Query | undefined {
  const words = folded.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return undefined;
  const must = words.map((word, position): Query => {
    const fuzzy: Query = {
      multi_match: {
        query: word,
        type: 'best_fields',
        fields: TEXT_FIELDS,
        fuzziness: FUZZINESS,
        operator: 'and',
      },
    };
    if (position < words.length - 1) return fuzzy;
    const prefix: Query = {
      multi_match: { query: word, type: 'bool_prefix', fields: TEXT_FIELDS, operator: 'and' },
    };
    return { dis_max: { queries: [fuzzy, prefix] } };
  });
  return { bool: { must, boost: CROSS_FIELD_BOOST } };
}
