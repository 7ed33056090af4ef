// wordClauses: the clauses one typed word adds to the text query of `q`, and where a word is looked for. Checked
// on the contract each export states: which lookups a word gets for its length, its scope and the query's parts.
import type { estypes } from '@elastic/elasticsearch';
import { expect } from 'chai';
import {
  DESCRIPTOR_FIELDS,
  TEXT_FIELD_TABLE,
  TEXT_FIELDS,
  TYPO_FIELDS,
  boostedField,
} from '../../../../src/matching/textFields.js';
import { MAX_TYPO_WORD_LETTERS } from '../../../../src/matching/typoRules.js';
import { ALL_PARTS, type TextQueryParts } from '../../../../src/queries/textQueryParts.js';
import {
  descriptorQuery,
  EVERYWHERE,
  joinedSplitQueries,
  scopeOf,
  wordQuery,
} from '../../../../src/queries/wordClauses.js';
import {
  NAME_CANONICAL_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_FOLDED_FIELD,
  NAME_JOINED_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
} from '../../../../indexContract/fields.js';

type Query = estypes.QueryDslQueryContainer;

const NONE: TextQueryParts = Object.fromEntries(Object.keys(ALL_PARTS).map((part) => [part, false])) as never;
const clauses = (query: Query): Query[] => (query.dis_max?.queries ?? []) as Query[];
/** The fields a clause of the word's dis_max looks in, as `kind:field` (a multi_match by its type). */
function shapes(query: Query): string[] {
  return clauses(query).map((clause) => {
    if (clause.multi_match) {
      const fuzzy = clause.multi_match.fuzziness === undefined ? '' : '~';
      return `multi_match:${clause.multi_match.type}${fuzzy}`;
    }
    const [kind, body] = Object.entries(clause)[0]!;
    return `${kind}:${Object.keys(body as object)[0]}`;
  });
}

describe('queries/wordClauses: one typed word of q', () => {
  describe('scopeOf', () => {
    it('is everywhere without a qualifier, or for a field that is not a text field', () => {
      expect(scopeOf(undefined)).to.equal(EVERYWHERE);
      expect(EVERYWHERE).to.deep.equal({
        fields: TEXT_FIELDS,
        typoFields: TYPO_FIELDS,
        name: true,
        descriptors: true,
      });
    });

    it("is the one field a qualifier names, with its boost; typos unless its rules are exact; the name's spellings only for the name", () => {
      for (const entry of TEXT_FIELD_TABLE) {
        const scope = scopeOf(entry.record);
        expect(scope.fields, entry.record).to.deep.equal([boostedField(entry)]);
        expect(scope.typoFields, entry.record).to.deep.equal(
          entry.rules === 'exact' ? [] : [boostedField(entry)],
        );
        expect(scope.name, entry.record).to.equal(entry.rules === 'name');
        expect(scope.descriptors, entry.record).to.equal(false);
      }
    });
  });

  describe('joinedSplitQueries', () => {
    it('looks a long word up among the joined name words, and each long enough pair of neighbours as one word', () => {
      const queries = joinedSplitQueries(['hydro', 'electric', 'dam'], 1);
      expect(
        queries.map((query) => Object.entries(query.term!)[0]!).map(([field, term]) => [field, term.value]),
      ).to.deep.equal([
        [NAME_JOINED_FIELD, 'electric'],
        [NAME_CANONICAL_FIELD, 'hydroelectric'],
        [NAME_CANONICAL_FIELD, 'electricdam'],
      ]);
    });

    it('leaves out a word or a pair shorter than the joined minimum', () => {
      expect(joinedSplitQueries(['ab', 'c'], 0)).to.deep.equal([]);
      expect(joinedSplitQueries(['solo'], 0)).to.deep.equal([]);
    });
  });

  describe('wordQuery', () => {
    it('a word with every part: as typed, its typos, its spellings without a letter, and (last) as a prefix', () => {
      const alternative: Query = { term: { x: 'y' } };
      const query = wordQuery('solarr', true, ALL_PARTS, [alternative]);
      expect(clauses(query)[0]).to.deep.equal({
        multi_match: { query: 'solarr', type: 'cross_fields', fields: TEXT_FIELDS, operator: 'and' },
      });
      expect(clauses(query)[1], 'the alternatives given follow the word as typed').to.equal(alternative);
      expect(shapes(query)).to.deep.equal([
        'multi_match:cross_fields',
        'term:x',
        `fuzzy:${NAME_DROPPED_LETTER_FIELD}`,
        'multi_match:best_fields~',
        `term:${NAME_DROPPED_LETTER_FIELD}`,
        `term:${NAME_WITHOUT_FIRST_LETTER_FIELD}`,
        `match:${NAME_FOLDED_FIELD}`,
        'multi_match:bool_prefix',
      ]);
    });

    it('with no part on: the word as typed (best_fields) and its typos, no prefix unless it is the last word', () => {
      expect(shapes(wordQuery('solar', false, NONE, []))).to.deep.equal([
        'multi_match:best_fields',
        'multi_match:best_fields~',
      ]);
    });

    it('a word too long for typos is matched as typed only, even as the last word', () => {
      const long = 'a'.repeat(MAX_TYPO_WORD_LETTERS + 1);
      expect(shapes(wordQuery(long, true, ALL_PARTS, []))).to.deep.equal(['multi_match:cross_fields']);
    });

    it("in an exact field's scope: no typos and none of the name's spellings", () => {
      const scope = scopeOf('reference_code');
      const query = wordQuery('ppa12345', true, ALL_PARTS, [], scope);
      expect(shapes(query)).to.deep.equal(['multi_match:cross_fields', 'multi_match:bool_prefix']);
      expect(clauses(query)[0]!.multi_match!.fields).to.deep.equal(scope.fields);
    });
  });

  describe('descriptorQuery', () => {
    it('matches the technology and the country at a constant score, the last word as a prefix', () => {
      const [query] = descriptorQuery("Côte d'Ivoire", true);
      expect(query!.constant_score!.filter).to.deep.equal({
        multi_match: {
          query: 'cote d ivoire',
          type: 'bool_prefix',
          fields: DESCRIPTOR_FIELDS,
          operator: 'and',
        },
      });
      expect(descriptorQuery('solar', false)[0]!.constant_score!.filter!.multi_match!.type).to.equal(
        'best_fields',
      );
    });

    it('is nothing for a word with no letters or digits', () => {
      expect(descriptorQuery('&', false)).to.deep.equal([]);
    });
  });
});
