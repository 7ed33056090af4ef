// One typed word's clauses in the text query of `q` (src/queries/textQuery.ts): as typed, with its typos, its other
// spellings (canonical, joined or split, a letter dropped or doubled, the first letter dropped), the technology's
// and the country's words, and (the word being typed) as a prefix; and where a word is looked for.
import type { estypes } from '@elastic/elasticsearch';
import { droppedLetterSpellings } from '../../indexContract/text/typos.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';
import {
  NAME_CANONICAL_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_FOLDED_FIELD,
  NAME_JOINED_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
} from '../../indexContract/fields.js';
import {
  boostedField,
  DESCRIPTOR_FIELDS,
  TEXT_FIELD_TABLE,
  TEXT_FIELDS,
  TYPO_FIELDS,
  type TextField,
} from '../matching/textFields.js';
import {
  DROPPED_LETTER_MIN_LETTERS,
  FIRST_LETTER_AS_TYPED,
  FUZZINESS,
  JOINED_MIN_LETTERS,
  MAX_TYPO_WORD_LETTERS,
  ONE_TYPO,
  TWO_TYPOS_WORD_LETTERS,
  typoTolerance,
} from '../matching/typoRules.js';
import {
  TYPO_WEIGHT,
  EXTRA_LETTER_BOOST,
  DROPPED_LETTER_BOOST,
  JOINED_WORD_BOOST,
  TWO_TYPOS_WORD_BOOST,
  DESCRIPTOR_WORD_BOOST,
  FIRST_LETTER_DROPPED_BOOST,
} from './textBoosts.js';
import { type TextQueryParts } from './textQueryParts.js';

type Query = estypes.QueryDslQueryContainer;

/** Where a term is looked for: everywhere `q` looks, or in the one field a qualifier names. */
export interface Scope {
  /** The folded fields, with their boosts. */
  fields: string[];
  /** Those of them a word may match with a typo. */
  typoFields: string[];
  /** The name is among them: its other spellings (dropped letters, joined words, …) count. */
  name: boolean;
  /** Everywhere: the technology and the country count too. */
  descriptors: boolean;
}

export const EVERYWHERE: Scope = {
  fields: TEXT_FIELDS,
  typoFields: TYPO_FIELDS,
  name: true,
  descriptors: true,
};

export function scopeOf(field: TextField['record'] | undefined): Scope {
  const entry = TEXT_FIELD_TABLE.find(({ record }) => record === field);
  if (entry === undefined) return EVERYWHERE;
  const fields = [boostedField(entry)];
  return {
    fields,
    typoFields: entry.rules === 'exact' ? [] : fields,
    name: entry.rules === 'name',
    descriptors: false,
  };
}

/** Typed words looked up among the names' one-letter-dropped spellings (typoRules.ts). */
const DROPPED_LETTER_WORD = new RegExp(`^\\p{L}{${DROPPED_LETTER_MIN_LETTERS},}$`, 'u');

const TWO_TYPOS_WORD = new RegExp(`^\\p{L}{${TWO_TYPOS_WORD_LETTERS.join(',')}}$`, 'u');

/**
 * A typed word that is two adjacent name words joined ("kafuegorge" in name_joined), or one half of a name word
 * typed as two ("hydro" + "electric" is the name word "hydroelectric", for either of the two typed words).
 */
export function joinedSplitQueries(compactWords: readonly string[], position: number): Query[] {
  const queries: Query[] = [];
  const word = compactWords[position] ?? '';
  if ([...word].length >= JOINED_MIN_LETTERS) {
    queries.push({ term: { [NAME_JOINED_FIELD]: { value: word, boost: JOINED_WORD_BOOST } } });
  }
  const splits = new Set<string>();
  if (position > 0) splits.add(`${compactWords[position - 1] ?? ''}${word}`);
  if (position + 1 < compactWords.length) splits.add(`${word}${compactWords[position + 1] ?? ''}`);
  for (const joined of splits) {
    if ([...joined].length < JOINED_MIN_LETTERS || joined === word) continue;
    queries.push({ term: { [NAME_CANONICAL_FIELD]: { value: joined, boost: JOINED_WORD_BOOST } } });
  }
  return queries;
}

/** One typed word: the best of its matches as typed, with a typo, and (last word) as a prefix. */
export function wordQuery(
  word: string,
  last: boolean,
  parts: TextQueryParts,
  alternatives: Query[],
  scope: Scope = EVERYWHERE,
): Query {
  const exactOnly = [...word].length > MAX_TYPO_WORD_LETTERS;
  const queries: Query[] = [
    // cross_fields blends a word's frequency over the fields: "solar", common in names, would otherwise score
    // higher in a developer's name (rare there) than in the project name, boost or not.
    {
      multi_match: {
        query: word,
        type: parts.crossFields ? 'cross_fields' : 'best_fields',
        fields: scope.fields,
        operator: 'and',
      },
    },
  ];
  queries.push(...alternatives);
  if (exactOnly) return { dis_max: { queries } };
  if (scope.name && parts.twoTypos && TWO_TYPOS_WORD.test(word)) {
    const tolerance = typoTolerance(ONE_TYPO, FIRST_LETTER_AS_TYPED);
    queries.push({
      fuzzy: { [NAME_DROPPED_LETTER_FIELD]: { value: word, ...tolerance, boost: TWO_TYPOS_WORD_BOOST } },
    });
  }
  if (scope.typoFields.length > 0) {
    queries.push({
      multi_match: {
        query: word,
        type: 'best_fields',
        fields: scope.typoFields,
        ...typoTolerance(FUZZINESS),
        operator: 'and',
        boost: TYPO_WEIGHT,
      },
    });
  }
  // A letter dropped from a word of TYPO_MIN_LETTERS leaves one fewer, too short for fuzziness ("Slar" for
  // "Solar"): the indexer writes every name word that long or longer with one letter (not the first) dropped.
  if (scope.name && parts.droppedLetter && DROPPED_LETTER_WORD.test(word)) {
    queries.push({ term: { [NAME_DROPPED_LETTER_FIELD]: { value: word, boost: DROPPED_LETTER_BOOST } } });
  }
  // The same for the first letter ("Olar"): kept in a field of its own, so that the other lookups of
  // the dropped-letter spellings (two typos, suggestions) still rely on the first letter.
  if (scope.name && parts.firstLetter && DROPPED_LETTER_WORD.test(word)) {
    queries.push({
      term: { [NAME_WITHOUT_FIRST_LETTER_FIELD]: { value: word, boost: FIRST_LETTER_DROPPED_BOOST } },
    });
  }
  // The other way round: a letter doubled or inserted. Fuzziness finds "Vitória" and "Victoria" for "Viitória"
  // alike (one edit each); only the first is the typed word with a letter taken out.
  const withoutOneLetter = scope.name && parts.extraLetter ? droppedLetterSpellings(word) : [];
  if (withoutOneLetter.length > 0) {
    queries.push({
      match: { [NAME_FOLDED_FIELD]: { query: withoutOneLetter.join(' '), boost: EXTRA_LETTER_BOOST } },
    });
  }
  if (last) {
    queries.push({
      multi_match: { query: word, type: 'bool_prefix', fields: scope.fields, operator: 'and' },
    });
  }
  return { dis_max: { queries } };
}

/**
 * A typed word matched by the PPA's technology or country (DESCRIPTOR_FIELDS): as typed, the last word also as a
 * prefix ("Tobel hydr"). A constant score: how common "solar" is among technologies says nothing about how well a
 * PPA matches. No typo tolerance here: a fuzzy clause on these fields cost Elasticsearch more than it found
 * (docs/performance.md, "Tried and not kept"), and a name that says the word still matches it with a typo. The
 * word is cut as the indexer cuts the descriptors' words (foldedWords: "d'ivoire" → d, ivoire).
 */
export function descriptorQuery(word: string, last: boolean): Query[] {
  const query = foldedWords(word).join(' ');
  if (query === '') return [];
  const type = last ? 'bool_prefix' : 'best_fields';
  return [
    {
      constant_score: {
        filter: { multi_match: { query, type, fields: DESCRIPTOR_FIELDS, operator: 'and' } },
        boost: DESCRIPTOR_WORD_BOOST,
      },
    },
  ];
}
