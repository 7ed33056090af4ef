// The steps of the text query's tuning (tools/relevance/method.md), so each can be re-measured on today's corpus:
// `npm run relevance -- --variant <step>`. The API always uses src/queries/textQuery.ts in full ("current").
import type { estypes } from '@elastic/elasticsearch';
import { TEXT_FIELDS } from '../../src/matching/textFields.js';
import { FUZZINESS } from '../../src/matching/typoRules.js';
import {
  buildTextQuery,
  PHRASE_BOOST,
  REFERENCE_CODE_BOOST,
  type TextQueryParts,
} from '../../src/queries/textQuery.js';
import { foldText } from '../../indexContract/text/fold.js';

type Query = estypes.QueryDslQueryContainer;
export type TextQueryBuilder = (q: string) => Query;

/** Step 0, the query before tuning: phrase + fuzzy best_fields (AND) + bool_prefix + a cross-field clause. */
function baseline(q: string): Query {
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
  const words = folded.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length > 0) {
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
    should.push({ bool: { must, boost: 0.5 } });
  }
  return { bool: { should, minimum_should_match: 1 } };
}

const NONE: TextQueryParts = {
  crossFields: false,
  droppedLetter: false,
  extraLetter: false,
  nameBonuses: false,
  nameWithTypo: false,
  allWordsInName: false,
  canonical: false,
  joinedSplit: false,
  twoTypos: false,
  compactPrefix: false,
  descriptors: false,
  firstLetter: false,
};
const step1 = NONE;
const step2 = { ...step1, droppedLetter: true };
const step3 = { ...step2, nameBonuses: true };
const step4 = { ...step3, crossFields: true };
const step5 = { ...step4, allWordsInName: true };
const step6 = { ...step5, nameWithTypo: true, extraLetter: true };
const step7 = { ...step6, canonical: true };
const step8 = { ...step7, joinedSplit: true };
const step9 = { ...step8, twoTypos: true };
const step10 = { ...step9, compactPrefix: true };
const step11 = { ...step10, descriptors: true };
const step12 = { ...step11, firstLetter: true };

const withParts =
  (parts: TextQueryParts): TextQueryBuilder =>
  (q) =>
    buildTextQuery(q, parts);

/** In the order they were added; the last step is the API's query (checked by the relevance test). */
export const STEPS: Record<string, TextQueryBuilder> = {
  baseline,
  'per-word': withParts(step1),
  'dropped-letter': withParts(step2),
  'name-bonuses': withParts(step3),
  'cross-fields': withParts(step4),
  'all-words-in-name': withParts(step5),
  'name-typo-extra-letter': withParts(step6),
  canonical: withParts(step7),
  'joined-split': withParts(step8),
  'two-typos': withParts(step9),
  'compact-prefix': withParts(step10),
  descriptors: withParts(step11),
  'first-letter': withParts(step12),
};
export const LAST_STEP_PARTS: TextQueryParts = step12;

export const VARIANTS: Record<string, TextQueryBuilder> = { ...STEPS, current: (q) => buildTextQuery(q) };
