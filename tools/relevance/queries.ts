// The relevance queries, generated from the corpus itself with a seeded PRNG: each class imitates one way people
// type (exact name, a typo, no accents, capitals, padding, typing in progress, a distinctive word plus a place,
// a reference code, gibberish), with the record it should find. Only live records (published and active) are
// used, because the list serves only those.
import type { PpaRecord } from '../../indexContract/record.js';
import { Random } from '../../tools/generate/random.js';
import { foldText } from '../../indexContract/text/fold.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';
import {
  canonicalWords,
  compactForm,
  otherNumeral,
  SECTOR_ABBREVIATIONS,
  technologyWords,
  TECHNOLOGY_WORDS,
} from '../../indexContract/text/canonical.js';
import { countryNames } from '../../indexContract/text/countryNames.js';
import { COMPOUND_WORDS, isPastedNameRecord } from './corpus.js';

export const QUERY_CLASSES = [
  'exact',
  'accents_stripped',
  'capitals',
  'padded',
  'typo',
  'typing_prefix',
  'word_place',
  'code_exact',
  'code_lower',
  'gibberish',
  // What people really type (issue 19): the name written another way than the registry writes it.
  'swapped_words',
  'word_left_out',
  'transposed_letters',
  'developer_name',
  'two_typos',
  'joined_words',
  'split_word',
  'numeral_other_way',
  'abbreviation_other_way',
  'punctuation_dropped',
  // Technology and country words, and first-letter typos (issue 32).
  'name_technology',
  'name_place_technology',
  'first_letter_typo',
  // Past the forgiving tolerance (issue 69): each finds nothing as typed, and "did you mean" should lead to it.
  'three_edits',
  'first_letter_and_typo',
  'unknown_word',
  'joined_beyond',
  // Suggestions as you type (GET /api/v1/ppas/suggest), not `q`:
  'suggest_typing',
  'suggest_typo',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export interface RelevanceQuery {
  queryClass: QueryClass;
  q: string;
  /** The record the query was made from; null for gibberish (which must find nothing). */
  expected: string | null;
  /**
   * Slugs that count as the expected answer: the records whose folded name equals the expected record's (the
   * query cannot tell them apart), or just the expected record for codes and word + place.
   */
  equivalent: string[];
  /** What the query was made from, for the report's examples of misses (e.g. the typo applied). */
  note?: string;
}

export interface QueryGenerationOptions {
  seed: number;
  perClass: number;
}

/** Only letters (after folding) count as words a typo can go into: "Run-of-River" is left alone. */
const TYPO_WORD = /^\p{L}{5,}$/u;
const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function isLive(record: PpaRecord): boolean {
  return record.published && record.active;
}

export { foldedWords };

/** Accents removed, case kept: what someone types on a keyboard without accents ("Nørre Vång" → "Norre Vang"). */
export function stripAccents(text: string): string {
  return [...text.normalize('NFKD').replace(/\p{M}/gu, '')]
    .map((character) => {
      const lower = character.toLowerCase();
      const folded = foldText(lower);
      if (folded === lower) return character;
      return character === lower ? folded : folded.toUpperCase();
    })
    .join('');
}

export function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** One typo in `word`, never in its first letter: adjacent swap, a letter dropped, replaced or doubled. */
export function applyTypo(random: Random, word: string): { typo: string; kind: string } | undefined {
  const letters = [...word];
  const kinds = shuffle(random, ['swap', 'drop', 'replace', 'double']);
  for (const kind of kinds) {
    const position = random.int(1, letters.length - 1);
    const copy = [...letters];
    if (kind === 'swap') {
      const at = Math.min(position, letters.length - 2);
      if (at < 1 || copy[at] === copy[at + 1]) continue;
      [copy[at], copy[at + 1]] = [copy[at + 1] as string, copy[at] as string];
    } else if (kind === 'drop') {
      copy.splice(position, 1);
    } else if (kind === 'replace') {
      const original = copy[position] as string;
      const lower = foldText(original);
      const choices = [...LETTERS].filter((letter) => letter !== lower);
      const replacement = random.pick(choices);
      copy[position] = original === original.toLowerCase() ? replacement : replacement.toUpperCase();
    } else {
      copy.splice(position, 0, copy[position] as string);
    }
    return { typo: copy.join(''), kind };
  }
  return undefined;
}

/** One typo at the first letter of `word`: replaced, dropped, doubled, or swapped with the second letter. */
export function applyFirstLetterTypo(
  random: Random,
  word: string,
): { typo: string; kind: string } | undefined {
  const letters = [...word];
  const first = letters[0] ?? '';
  for (const kind of shuffle(random, ['swap', 'drop', 'replace', 'double'])) {
    const copy = [...letters];
    if (kind === 'swap') {
      if (foldText(first) === foldText(letters[1] ?? '')) continue;
      // The case stays where it was: "Solar" → "Oslar".
      const second = letters[1] ?? '';
      copy[0] = first === first.toLowerCase() ? second.toLowerCase() : second.toUpperCase();
      copy[1] = first.toLowerCase();
    } else if (kind === 'drop') {
      copy.splice(0, 1);
      copy[0] = first === first.toLowerCase() ? (copy[0] ?? '') : (copy[0] ?? '').toUpperCase();
    } else if (kind === 'replace') {
      const replacement = random.pick([...LETTERS].filter((letter) => letter !== foldText(first)));
      copy[0] = first === first.toLowerCase() ? replacement : replacement.toUpperCase();
    } else {
      copy.splice(0, 0, first);
    }
    return { typo: copy.join(''), kind };
  }
  return undefined;
}

interface Corpus {
  live: PpaRecord[];
  /** Live records by folded project name. */
  byName: Map<string, PpaRecord[]>;
  /** Every folded word of a live name, location, developer or code: a typo must not land on one of them. */
  vocabulary: Set<string>;
  /** In how many live names each folded word occurs. */
  nameWordFrequency: Map<string, number>;
  /** Live records by the compact canonical form of their name (the same name however it is written). */
  byCompact: Map<string, PpaRecord[]>;
  /** Distinct compact names with their canonical words, by each of those words. */
  namesByCanonicalWord: Map<string, CanonicalName[]>;
}

interface CanonicalName {
  compact: string;
  words: Set<string>;
  count: number;
}

function describeCorpus(records: readonly PpaRecord[]): Corpus {
  // The pasted names (corpus.ts) have checks of their own (pastedNames.ts): the classes are drawn from the rest.
  const live = records.filter((record) => isLive(record) && !isPastedNameRecord(record));
  const byName = new Map<string, PpaRecord[]>();
  const vocabulary = new Set<string>();
  const nameWordFrequency = new Map<string, number>();
  for (const record of live) {
    const name = foldText(record.project_name);
    const group = byName.get(name);
    if (group) group.push(record);
    else byName.set(name, [record]);
    for (const word of new Set(foldedWords(record.project_name))) {
      nameWordFrequency.set(word, (nameWordFrequency.get(word) ?? 0) + 1);
    }
    for (const text of [record.project_name, record.location, record.developer, record.reference_code]) {
      for (const word of foldedWords(text)) vocabulary.add(word);
    }
  }
  const byCompact = new Map<string, PpaRecord[]>();
  const namesByCanonicalWord = new Map<string, CanonicalName[]>();
  for (const record of live) {
    const compact = compactForm(record.project_name);
    const group = byCompact.get(compact);
    if (group) {
      group.push(record);
      continue;
    }
    byCompact.set(compact, [record]);
    const words = canonicalWords(record.project_name);
    const entry = { compact, words: new Set(words), count: words.length };
    for (const word of entry.words) {
      const list = namesByCanonicalWord.get(word);
      if (list) list.push(entry);
      else namesByCanonicalWord.set(word, [entry]);
    }
  }
  return { live, byName, vocabulary, nameWordFrequency, byCompact, namesByCanonicalWord };
}

function nameQuery(
  queryClass: QueryClass,
  q: string,
  record: PpaRecord,
  corpus: Corpus,
  note?: string,
): RelevanceQuery {
  // The same name however it is written ("Solar PP", "Solar Power Plant"): see writtenOtherwise.
  const equivalent = (corpus.byCompact.get(compactForm(record.project_name)) ?? [record]).map((r) => r.slug);
  return { queryClass, q, expected: record.slug, equivalent, ...(note ? { note } : {}) };
}

/**
 * Name classes sample distinct folded names (not records), so a name shared by many records is not asked many
 * times; the expected record is one record of that name, picked at random.
 */
function sampleNames(random: Random, corpus: Corpus, accept: (record: PpaRecord) => boolean): PpaRecord[] {
  const picked: PpaRecord[] = [];
  for (const name of shuffle(random, [...corpus.byName.keys()].sort())) {
    const candidates = (corpus.byName.get(name) ?? []).filter(accept);
    if (candidates.length > 0) picked.push(random.pick(candidates));
  }
  return picked;
}

function take<T>(items: Iterable<T>, count: number): T[] {
  const taken: T[] = [];
  for (const item of items) {
    if (taken.length >= count) break;
    taken.push(item);
  }
  return taken;
}

function* exactNames(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    yield nameQuery('exact', record.project_name, record, corpus);
  }
}

function* accentsStripped(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const accented = (record: PpaRecord): boolean => stripAccents(record.project_name) !== record.project_name;
  for (const record of sampleNames(random, corpus, accented)) {
    yield nameQuery('accents_stripped', stripAccents(record.project_name), record, corpus);
  }
}

function* capitals(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    yield nameQuery('capitals', record.project_name.toUpperCase(), record, corpus);
  }
}

function* padded(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const spaces = (): string => ' '.repeat(random.int(1, 3));
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const q = `${spaces()}${words.join(spaces() + ' ')}${spaces()}`;
    yield nameQuery('padded', q, record, corpus);
  }
}

function* typos(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = words.map((word, index) => ({ word, index })).filter(({ word }) => TYPO_WORD.test(word));
    if (eligible.length === 0) continue;
    const { word, index } = random.pick(eligible);
    const typo = applyTypo(random, word);
    // A "typo" that spells another word of the corpus is no longer a typo: the query means something else.
    if (!typo || corpus.vocabulary.has(foldText(typo.typo))) continue;
    const q = words.map((w, i) => (i === index ? typo.typo : w)).join(' ');
    yield nameQuery('typo', q, record, corpus, `${typo.kind}: ${word} → ${typo.typo}`);
  }
}

/** One typo at the first letter of a word of five letters or more (issue 32): "Olar Park", "Ssolar Park". */
function* firstLetterTypos(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = words.map((word, index) => ({ word, index })).filter(({ word }) => TYPO_WORD.test(word));
    if (eligible.length === 0) continue;
    const { word, index } = random.pick(eligible);
    const typo = applyFirstLetterTypo(random, word);
    if (!typo || corpus.vocabulary.has(foldText(typo.typo))) continue;
    const q = words.map((w, i) => (i === index ? typo.typo : w)).join(' ');
    yield writtenOtherwise('first_letter_typo', q, record, corpus, `${typo.kind}: ${word} → ${typo.typo}`);
  }
}

/**
 * The issue-19 classes write the name another way than the registry does ("Kafue Gorge II" for "Kafue Gorge 2"),
 * so every record whose name has the same canonical words in the same order (compactForm) counts as the expected
 * one: the query cannot tell them apart.
 */
function writtenOtherwise(
  queryClass: QueryClass,
  q: string,
  record: PpaRecord,
  corpus: Corpus,
  note?: string,
): RelevanceQuery {
  const equivalent = (corpus.byCompact.get(compactForm(record.project_name)) ?? [record]).map((r) => r.slug);
  return { queryClass, q, expected: record.slug, equivalent, ...(note ? { note } : {}) };
}

/**
 * Whether the words of `q` single the record's name out: no other name with as many words or fewer holds all of
 * them (a shorter or equally long name with the same words would rank as high, and the query cannot say which).
 */
function singlesOut(corpus: Corpus, q: string, record: PpaRecord): boolean {
  const own = compactForm(record.project_name);
  const words = [...new Set(canonicalWords(q))];
  const count = canonicalWords(record.project_name).length;
  const lists = words.map((word) => corpus.namesByCanonicalWord.get(word) ?? []);
  const shortest = lists.sort((a, b) => a.length - b.length)[0] ?? [];
  return !shortest.some(
    (name) => name.compact !== own && name.count <= count && words.every((word) => name.words.has(word)),
  );
}

/** Two adjacent words swapped ("Gorge Kafue"). */
function* swappedWords(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    if (words.length < 2) continue;
    const at = random.int(0, words.length - 2);
    if (foldText(words[at] ?? '') === foldText(words[at + 1] ?? '')) continue;
    const swapped = [...words];
    [swapped[at], swapped[at + 1]] = [words[at + 1] ?? '', words[at] ?? ''];
    const q = swapped.join(' ');
    if (!singlesOut(corpus, q, record)) continue;
    yield writtenOtherwise('swapped_words', q, record, corpus);
  }
}

/** One word of a name of four words or more left out (a word of letters, not the first). */
function* wordLeftOut(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    if (words.length < 4) continue;
    const at = random.int(1, words.length - 1);
    if (!/^\p{L}{3,}$/u.test(words[at] ?? '')) continue;
    const q = words.filter((_, index) => index !== at).join(' ');
    if (!singlesOut(corpus, q, record)) continue;
    yield writtenOtherwise('word_left_out', q, record, corpus, `left out: ${words[at]}`);
  }
}

/** Two adjacent letters swapped in a word of five letters or more, never the first letter. */
function* transposedLetters(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = words.map((word, index) => ({ word, index })).filter(({ word }) => TYPO_WORD.test(word));
    if (eligible.length === 0) continue;
    const { word, index } = random.pick(eligible);
    const letters = [...word];
    const at = random.int(1, letters.length - 2);
    if (letters[at] === letters[at + 1]) continue;
    [letters[at], letters[at + 1]] = [letters[at + 1] ?? '', letters[at] ?? ''];
    const typo = letters.join('');
    if (corpus.vocabulary.has(foldText(typo))) continue;
    const q = words.map((w, i) => (i === index ? typo : w)).join(' ');
    yield writtenOtherwise('transposed_letters', q, record, corpus, `${word} → ${typo}`);
  }
}

/** A developer's full name as written: any live record of that developer is an answer (recall@10: all of them). */
function* developerName(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const byDeveloper = new Map<string, PpaRecord[]>();
  for (const record of corpus.live) {
    const list = byDeveloper.get(record.developer);
    if (list) list.push(record);
    else byDeveloper.set(record.developer, [record]);
  }
  for (const developer of shuffle(random, [...byDeveloper.keys()].sort())) {
    const records = byDeveloper.get(developer) ?? [];
    yield {
      queryClass: 'developer_name',
      q: developer,
      expected: records[0]?.slug ?? null,
      equivalent: records.map((record) => record.slug),
    };
  }
}

/** Damerau–Levenshtein distance (adjacent transpositions count one edit), as Elasticsearch's fuzziness counts. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

/** Two typos: two in one word of eight letters or more, or one in each of two words of five or more. */
function* twoTypos(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = words.map((word, index) => ({ word, index })).filter(({ word }) => TYPO_WORD.test(word));
    const long = eligible.filter(({ word }) => [...word].length >= 8);
    const changed = [...words];
    const notes: string[] = [];
    if (long.length > 0 && (eligible.length < 2 || random.chance(0.5))) {
      const { word, index } = random.pick(long);
      const first = applyTypo(random, word);
      const second = first && applyTypo(random, first.typo);
      if (!second || editDistance(foldText(word), foldText(second.typo)) !== 2) continue;
      changed[index] = second.typo;
      notes.push(`${word} → ${second.typo}`);
    } else if (eligible.length >= 2) {
      for (const { word, index } of random.sample(eligible, 2)) {
        const typo = applyTypo(random, word);
        if (!typo) break;
        changed[index] = typo.typo;
        notes.push(`${word} → ${typo.typo}`);
      }
      if (notes.length < 2) continue;
    } else {
      continue;
    }
    if (changed.some((word, index) => word !== words[index] && corpus.vocabulary.has(foldText(word))))
      continue;
    yield writtenOtherwise('two_typos', changed.join(' '), record, corpus, notes.join(', '));
  }
}

/** Two adjacent words written as one ("KafueGorge"). */
function* joinedWords(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    if (words.length < 2) continue;
    const at = random.int(0, words.length - 2);
    if (!/^\p{L}+$/u.test(words[at] ?? '') || !/^\p{L}+$/u.test(words[at + 1] ?? '')) continue;
    const joined = `${words[at]}${words[at + 1]}`;
    if (corpus.vocabulary.has(foldText(joined))) continue;
    const q = [...words.slice(0, at), joined, ...words.slice(at + 2)].join(' ');
    yield writtenOtherwise('joined_words', q, record, corpus);
  }
}

/** Compound words people write as two, and where they split them (the corpus's own compounds among them). */
export const SPLIT_POINTS: Readonly<Record<string, number>> = {
  hydroelectric: 5,
  photovoltaic: 5,
  geothermal: 3,
  cogeneration: 2,
  landfill: 4,
  lakeside: 4,
  newport: 3,
  hydropower: 5,
  windfarm: 4,
  windpark: 4,
  powerplant: 5,
  powerhouse: 5,
  ...Object.fromEntries(Object.entries(COMPOUND_WORDS).map(([word, at]) => [word.toLowerCase(), at])),
};

/** A compound word written as two ("Hydro electric" for "Hydroelectric"). */
function* splitWord(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const splittable = (word: string): boolean => SPLIT_POINTS[word.toLowerCase()] !== undefined;
  for (const record of sampleNames(random, corpus, (r) => r.project_name.split(/\s+/u).some(splittable))) {
    const words = record.project_name.split(/\s+/u);
    const candidates = words.map((word, index) => ({ word, index })).filter(({ word }) => splittable(word));
    const { word, index } = random.pick(candidates);
    const at = SPLIT_POINTS[word.toLowerCase()] ?? 1;
    const q = words.map((w, i) => (i === index ? `${word.slice(0, at)} ${word.slice(at)}` : w)).join(' ');
    yield writtenOtherwise('split_word', q, record, corpus, `${word} split`);
  }
}

/** A numeral 1–10 written the other way: digits for Roman ("Unit 3" for "Unit III") and Roman for digits. */
function* numeralOtherWay(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const hasNumeral = (record: PpaRecord): boolean =>
    record.project_name.split(/\s+/u).some((word) => otherNumeral(word) !== undefined);
  for (const record of sampleNames(random, corpus, hasNumeral)) {
    const words = record.project_name.split(/\s+/u);
    const candidates = words.map((word, index) => ({ word, index })).filter(({ word }) => otherNumeral(word));
    const { word, index } = random.pick(candidates);
    const other = (otherNumeral(word) ?? word).toUpperCase();
    const q = words.map((w, i) => (i === index ? other : w)).join(' ');
    yield writtenOtherwise('numeral_other_way', q, record, corpus, `${word} → ${other}`);
  }
}

const titleCase = (text: string): string => text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());

/** Sector abbreviations written out, or long forms abbreviated ("Kafue PV" ↔ "Kafue Photovoltaic"). */
function* abbreviationOtherWay(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  // Longest long forms first: "hydro power plant" is HPP, not "Hydro PP".
  const longForms = Object.entries(SECTOR_ABBREVIATIONS)
    .map(([abbreviation, long]) => ({ abbreviation, long: long.split(' ') }))
    .sort((a, b) => b.long.length - a.long.length);
  const rewrites = (name: string): string[] => {
    const words = name.split(/\s+/u);
    const folded = words.map((word) => foldText(word));
    const found: string[] = [];
    folded.forEach((word, index) => {
      const long = SECTOR_ABBREVIATIONS[word];
      if (long) found.push([...words.slice(0, index), titleCase(long), ...words.slice(index + 1)].join(' '));
    });
    for (const { abbreviation, long } of longForms) {
      const at = folded.findIndex((_, index) =>
        long.every((word, offset) => folded[index + offset] === word),
      );
      if (at < 0) continue;
      found.push(
        [...words.slice(0, at), abbreviation.toUpperCase(), ...words.slice(at + long.length)].join(' '),
      );
      break;
    }
    return found;
  };
  for (const record of sampleNames(random, corpus, (r) => rewrites(r.project_name).length > 0)) {
    yield writtenOtherwise(
      'abbreviation_other_way',
      random.pick(rewrites(record.project_name)),
      record,
      corpus,
    );
  }
}

/** Lowercased, accents gone, periods and apostrophes dropped: "central termica pe", "oneill wind". */
function* punctuationDropped(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const punctuated = (record: PpaRecord): boolean => /['’.]/u.test(record.project_name);
  for (const record of sampleNames(random, corpus, punctuated)) {
    const q = stripAccents(record.project_name).toLowerCase().replace(/['’.]/gu, '');
    yield writtenOtherwise('punctuation_dropped', q, record, corpus);
  }
}

/** Whether a corpus word is within `edits` of `word` (folded): what the forgiving match could meet it by. */
function nearCorpusWord(corpus: Corpus, word: string, edits: number): boolean {
  const letters = [...word].length;
  for (const other of corpus.vocabulary) {
    if (Math.abs([...other].length - letters) <= edits && editDistance(word, other) <= edits) return true;
  }
  return false;
}

const eligibleWords = (words: readonly string[], pattern: RegExp) =>
  words.map((word, index) => ({ word, index })).filter(({ word }) => pattern.test(word));

/**
 * Past the forgiving tolerance (issue 69): three typos in one word of eight letters or more (never its first
 * letter), one more than the fuzziness allows, and no corpus word within two typos of what was typed.
 */
function* threeEdits(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = eligibleWords(words, /^\p{L}{8,}$/u);
    if (eligible.length === 0) continue;
    const { word, index } = random.pick(eligible);
    let typed = word;
    for (let typo = 0; typo < 3; typo++) typed = applyTypo(random, typed)?.typo ?? typed;
    const folded = foldText(typed);
    if (editDistance(foldText(word), folded) !== 3 || nearCorpusWord(corpus, folded, 2)) continue;
    const q = words.map((w, i) => (i === index ? typed : w)).join(' ');
    yield writtenOtherwise('three_edits', q, record, corpus, `${word} → ${typed}`);
  }
}

/**
 * A wrong first letter and a second typo in one word of five to seven letters (two edits where the fuzziness allows
 * one), no corpus word within one typo of what was typed.
 */
function* firstLetterAndTypo(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const eligible = eligibleWords(words, /^\p{L}{5,7}$/u);
    if (eligible.length === 0) continue;
    const { word, index } = random.pick(eligible);
    const first = applyFirstLetterTypo(random, word);
    const second = first && applyTypo(random, first.typo);
    if (!first || !second) continue;
    const folded = foldText(second.typo);
    if (editDistance(foldText(word), folded) !== 2 || nearCorpusWord(corpus, folded, 1)) continue;
    const q = words.map((w, i) => (i === index ? second.typo : w)).join(' ');
    yield writtenOtherwise('first_letter_and_typo', q, record, corpus, `${word} → ${second.typo}`);
  }
}

/**
 * A word the data does not hold at all (made up, five to eight letters, no corpus word within two typos of it or
 * starting with it) typed among the name's words.
 */
function* unknownWord(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const words = [...corpus.vocabulary];
  for (const record of sampleNames(random, corpus, (r) => r.project_name.split(/\s+/u).length >= 2)) {
    const length = random.int(5, 8);
    const made = Array.from({ length }, (_, i) =>
      random.pick([...(i % 2 === 0 ? CONSONANTS : 'aeiou')]),
    ).join('');
    if (nearCorpusWord(corpus, made, 2) || words.some((word) => word.startsWith(made))) continue;
    const name = record.project_name.split(/\s+/u);
    const at = random.int(0, name.length);
    const q = [...name.slice(0, at), made, ...name.slice(at)].join(' ');
    yield writtenOtherwise('unknown_word', q, record, corpus, `+ ${made}`);
  }
}

/**
 * Three adjacent words written as one in a name of four words or more, another of its words left out (the whole
 * name written together is still found: the forgiving match takes it as the name's compact form); only where the
 * words written apart single the name out.
 */
function* joinedBeyond(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (const record of sampleNames(random, corpus, (r) => r.project_name.split(/\s+/u).length >= 4)) {
    const words = record.project_name.split(/\s+/u);
    const at = random.int(0, words.length - 3);
    const three = words.slice(at, at + 3);
    if (!three.every((word) => /^\p{L}{2,}$/u.test(word))) continue;
    const others = eligibleWords(words, /^\p{L}{3,}$/u).filter(({ index }) => index < at || index >= at + 3);
    if (others.length === 0) continue;
    const { word: left, index: leftOut } = random.pick(others);
    const kept = (joined: string) =>
      words.flatMap((word, index) =>
        index === leftOut || (index > at && index < at + 3) ? [] : [index === at ? joined : word],
      );
    const joined = three.join('');
    if (
      corpus.vocabulary.has(foldText(joined)) ||
      !singlesOut(corpus, kept(three.join(' ')).join(' '), record)
    )
      continue;
    const q = kept(joined).join(' ');
    yield writtenOtherwise('joined_beyond', q, record, corpus, `${three.join(' ')} joined, ${left} left out`);
  }
}

/** The suggest classes: run through the suggest endpoint's request path, not the list's. */
export const isSuggestClass = (queryClass: QueryClass): boolean => queryClass.startsWith('suggest_');

/**
 * What someone types into a search box on the way to a name that occurs once: the first words whole, then the
 * first 3+ letters of the next, accents stripped; only when that text starts that one name (folded). With
 * `typo`, one typo in a typed word of five letters or more (never its first letter), and only when the result
 * starts no name at all (else it is no typo but another name).
 */
function* suggestTyping(random: Random, corpus: Corpus, typo: boolean): Generator<RelevanceQuery> {
  const names = [...corpus.byName.keys()];
  const unique = (record: PpaRecord) => (corpus.byName.get(foldText(record.project_name)) ?? []).length === 1;
  for (const record of sampleNames(random, corpus, unique)) {
    const words = stripAccents(record.project_name).split(/\s+/u);
    const at = random.int(0, words.length - 1);
    const word = [...(words[at] ?? '')];
    if (word.length < 3) continue;
    const typed = [...words.slice(0, at), word.slice(0, random.int(3, word.length)).join('')];
    if (names.filter((name) => name.startsWith(foldText(typed.join(' ')))).length !== 1) continue;
    if (!typo) {
      yield nameQuery('suggest_typing', typed.join(' '), record, corpus);
      continue;
    }
    const eligible = typed.map((w, index) => ({ w, index })).filter(({ w }) => TYPO_WORD.test(w));
    if (eligible.length === 0) continue;
    const { w, index } = random.pick(eligible);
    const changed = applyTypo(random, w);
    if (!changed) continue;
    const q = typed.map((part, i) => (i === index ? changed.typo : part)).join(' ');
    if (names.some((name) => name.startsWith(foldText(q)))) continue;
    yield nameQuery('suggest_typo', q, record, corpus, `${changed.kind}: ${w} → ${changed.typo}`);
  }
}

/** Every word but the last, then the first 60 % of the last: only when that text starts one distinct name. */
function* typingPrefixes(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  const names = [...corpus.byName.keys()];
  for (const record of sampleNames(random, corpus, () => true)) {
    const words = record.project_name.split(/\s+/u);
    const last = [...(words[words.length - 1] ?? '')];
    if (last.length < 3) continue;
    const typed = [...words.slice(0, -1), last.slice(0, Math.ceil(last.length * 0.6)).join('')].join(' ');
    const folded = foldText(typed);
    if (names.filter((name) => name.startsWith(folded)).length !== 1) continue;
    yield nameQuery('typing_prefix', typed, record, corpus);
  }
}

/** Location parts: the town (first part) and the country (last part, when the country is disclosed). */
function placesOf(record: PpaRecord): string[] {
  const parts = record.location.split(',').map((part) => part.trim());
  const places = [parts[0] ?? ''];
  if (record.country_code !== null && parts.length > 1) places.push(parts[parts.length - 1] ?? '');
  return places.filter((place) => place && !place.includes('('));
}

function containsWords(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((word, offset) => haystack[start + offset] === word)) return true;
  }
  return false;
}

/**
 * The name's rarest word plus its town or country, where exactly one live record has both: the word in its name
 * and the place in its location or its name (a search cannot know which field the user means).
 */
function* wordPlace(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  // The place may also stand in a developer's name ("Zambia Electricity Supply Corporation").
  const indexed = corpus.live.map((record) => ({
    record,
    name: foldedWords(record.project_name),
    location: [...foldedWords(record.location), '|', ...foldedWords(record.developer)],
  }));
  // Records by the words of their name, so only records that share the rare word are compared.
  const byNameWord = new Map<string, typeof indexed>();
  for (const entry of indexed) {
    for (const word of new Set(entry.name)) {
      const list = byNameWord.get(word);
      if (list) list.push(entry);
      else byNameWord.set(word, [entry]);
    }
  }
  for (const { record, name } of shuffle(random, indexed)) {
    const words = record.project_name.split(/\s+/u).filter((word) => foldedWords(word).length > 0);
    const rarest = [...words].sort(
      (a, b) => rarity(corpus, a) - rarity(corpus, b) || words.indexOf(a) - words.indexOf(b),
    )[0];
    if (!rarest || !containsWords(name, foldedWords(rarest))) continue;
    // A numeral or an abbreviation also stands for its other form ("9" is "IX"): not a word to single a name out.
    if (otherNumeral(rarest) !== undefined || SECTOR_ABBREVIATIONS[foldText(rarest)] !== undefined) continue;
    for (const place of shuffle(random, placesOf(record))) {
      const wordTokens = foldedWords(rarest);
      const placeTokens = foldedWords(place);
      const matches = (byNameWord.get(wordTokens[0] ?? '') ?? []).filter(
        (other) =>
          containsWords(other.name, wordTokens) &&
          (containsWords(other.location, placeTokens) || containsWords(other.name, placeTokens)),
      );
      if (matches.length !== 1) continue;
      yield {
        queryClass: 'word_place',
        q: `${rarest} ${place}`,
        expected: record.slug,
        equivalent: [record.slug],
      };
      break;
    }
  }
}

/** Every word a technology is known by (TECHNOLOGY_WORDS and the values' own words). */
const ANY_TECHNOLOGY_WORD = new Set(Object.keys(TECHNOLOGY_WORDS).flatMap((token) => technologyWords(token)));

/** At most this many records may answer a name + technology query (each counts): "Kafue hydro" finds any of them. */
const TECHNOLOGY_ANSWERS = 3;

/**
 * The name's rarest word (not a numeral, an abbreviation or a technology word) and a term of the record's
 * technology (TECHNOLOGY_WORDS, as written: "natural gas", "PV") that its name does not hold ("Tobel hydro");
 * with `withPlace`, its town or country between them ("Tobel Switzerland hydro"), the country also by its English
 * name. The records the query cannot tell apart (the word in the name, every word of the term in the
 * technology's words or anywhere `q` looks, and the place in the location, name, developer or country's names)
 * all count as answers; only where there are at most TECHNOLOGY_ANSWERS of them.
 */
function* nameTechnology(random: Random, corpus: Corpus, withPlace: boolean): Generator<RelevanceQuery> {
  const queryClass = withPlace ? 'name_place_technology' : 'name_technology';
  const indexed = corpus.live.map((record) => {
    const countries = countryNames(record.country_code ?? null);
    return {
      record,
      name: foldedWords(record.project_name),
      canonicalName: canonicalWords(record.project_name),
      places: [
        ...foldedWords(record.location),
        '|',
        ...foldedWords(record.developer),
        ...countries.flatMap((country) => ['|', ...foldedWords(country)]),
      ],
      otherText: new Set(
        [record.location, record.developer, record.reference_code].flatMap((text) => foldedWords(text)),
      ),
      technology: new Set(technologyWords(record.technology)),
      countries,
    };
  });
  type Entry = (typeof indexed)[number];
  const byNameWord = new Map<string, Entry[]>();
  for (const entry of indexed) {
    for (const word of new Set(entry.name)) {
      const list = byNameWord.get(word);
      if (list) list.push(entry);
      else byNameWord.set(word, [entry]);
    }
  }
  const inName = (entry: Entry, text: string): boolean =>
    containsWords(entry.name, foldedWords(text)) || containsWords(entry.canonicalName, canonicalWords(text));
  // Whether a typed technology term finds the record: each word by the technology, or as `q` finds any word.
  const hasTechnology = (entry: Entry, term: string): boolean =>
    foldedWords(term).every(
      (word) => entry.technology.has(word) || inName(entry, word) || entry.otherText.has(word),
    );
  for (const entry of shuffle(random, indexed)) {
    const { record, name } = entry;
    const words = record.project_name.split(/\s+/u).filter((word) => foldedWords(word).length > 0);
    const rarest = [...words].sort(
      (a, b) => rarity(corpus, a) - rarity(corpus, b) || words.indexOf(a) - words.indexOf(b),
    )[0];
    if (!rarest || !containsWords(name, foldedWords(rarest))) continue;
    if (otherNumeral(rarest) !== undefined || SECTOR_ABBREVIATIONS[foldText(rarest)] !== undefined) continue;
    const wordTokens = foldedWords(rarest);
    if (wordTokens.some((word) => ANY_TECHNOLOGY_WORD.has(word))) continue;
    // A technology term the name does not say: what the name alone could not find.
    const terms = (TECHNOLOGY_WORDS[record.technology] ?? []).filter((term) => !inName(entry, term));
    if (terms.length === 0) continue;
    const term = random.pick(terms).toLowerCase();
    const candidates = (byNameWord.get(wordTokens[0] ?? '') ?? []).filter(
      (other) => containsWords(other.name, wordTokens) && hasTechnology(other, term),
    );
    if (!withPlace) {
      if (candidates.length > TECHNOLOGY_ANSWERS) continue;
      const equivalent = candidates.map((other) => other.record.slug);
      yield { queryClass, q: `${rarest} ${term}`, expected: record.slug, equivalent };
      continue;
    }
    const places = [...new Set([...placesOf(record), ...entry.countries.slice(0, 1)])].filter(
      (place) => !containsWords(foldedWords(place), wordTokens),
    );
    for (const place of shuffle(random, places)) {
      const placeTokens = foldedWords(place);
      const matches = candidates.filter(
        (other) => containsWords(other.places, placeTokens) || containsWords(other.name, placeTokens),
      );
      if (matches.length > TECHNOLOGY_ANSWERS) continue;
      const equivalent = matches.map((other) => other.record.slug);
      yield { queryClass, q: `${rarest} ${place} ${term}`, expected: record.slug, equivalent };
      break;
    }
  }
}

function rarity(corpus: Corpus, word: string): number {
  return Math.max(...foldedWords(word).map((token) => corpus.nameWordFrequency.get(token) ?? 0));
}

function* codes(random: Random, corpus: Corpus, lower: boolean): Generator<RelevanceQuery> {
  for (const record of shuffle(random, corpus.live)) {
    yield {
      queryClass: lower ? 'code_lower' : 'code_exact',
      q: lower ? record.reference_code.toLowerCase() : record.reference_code,
      expected: record.slug,
      equivalent: [record.slug],
    };
  }
}

function* gibberish(random: Random, corpus: Corpus): Generator<RelevanceQuery> {
  for (;;) {
    const words = Array.from({ length: random.int(1, 3) }, () =>
      Array.from({ length: random.int(5, 9) }, () => random.pick([...CONSONANTS])).join(''),
    );
    if (words.some((word) => corpus.vocabulary.has(word))) continue;
    yield { queryClass: 'gibberish', q: words.join(' '), expected: null, equivalent: [] };
  }
}

/** `perClass` queries of every class (fewer where the corpus has fewer candidates), deterministic for a seed. */
export function generateQueries(
  records: readonly PpaRecord[],
  { seed, perClass }: QueryGenerationOptions,
): RelevanceQuery[] {
  const corpus = describeCorpus(records);
  // One PRNG per class, so a change in one class's sampling leaves the other classes' queries as they were.
  const stream = (offset: number): Random => new Random(seed + offset * 7919);
  return [
    ...take(exactNames(stream(1), corpus), perClass),
    ...take(accentsStripped(stream(2), corpus), perClass),
    ...take(capitals(stream(3), corpus), perClass),
    ...take(padded(stream(4), corpus), perClass),
    ...take(typos(stream(5), corpus), perClass),
    ...take(typingPrefixes(stream(6), corpus), perClass),
    ...take(wordPlace(stream(7), corpus), perClass),
    ...take(codes(stream(8), corpus, false), perClass),
    ...take(codes(stream(9), corpus, true), perClass),
    ...take(gibberish(stream(10), corpus), perClass),
    ...take(swappedWords(stream(13), corpus), perClass),
    ...take(wordLeftOut(stream(14), corpus), perClass),
    ...take(transposedLetters(stream(15), corpus), perClass),
    ...take(developerName(stream(16), corpus), perClass),
    ...take(twoTypos(stream(17), corpus), perClass),
    ...take(joinedWords(stream(18), corpus), perClass),
    ...take(splitWord(stream(19), corpus), perClass),
    ...take(numeralOtherWay(stream(20), corpus), perClass),
    ...take(abbreviationOtherWay(stream(21), corpus), perClass),
    ...take(punctuationDropped(stream(22), corpus), perClass),
    ...take(nameTechnology(stream(23), corpus, false), perClass),
    ...take(nameTechnology(stream(24), corpus, true), perClass),
    ...take(firstLetterTypos(stream(25), corpus), perClass),
    ...take(threeEdits(stream(26), corpus), perClass),
    ...take(firstLetterAndTypo(stream(27), corpus), perClass),
    ...take(unknownWord(stream(28), corpus), perClass),
    ...take(joinedBeyond(stream(29), corpus), perClass),
    ...take(suggestTyping(stream(11), corpus, false), perClass),
    ...take(suggestTyping(stream(12), corpus, true), perClass),
  ];
}
