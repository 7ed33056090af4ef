// The relevance queries, generated from the corpus itself with a seeded PRNG: each class imitates one way people
// type (exact name, a typo, no accents, capitals, padding, typing in progress, a distinctive word plus a place,
// a reference code, gibberish), with the record it should find. Only live records (published and active) are
// used, because the list serves only those.
import type { PpaRecord } from '../../indexContract/record.js';
import { Random } from '../../indexer/generate/random.js';
import { foldText } from '../../indexContract/text/fold.js';
import { foldedWords } from '../../indexContract/text/prefixes.js';

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

interface Corpus {
  live: PpaRecord[];
  /** Live records by folded project name. */
  byName: Map<string, PpaRecord[]>;
  /** Every folded word of a live name, location, developer or code: a typo must not land on one of them. */
  vocabulary: Set<string>;
  /** In how many live names each folded word occurs. */
  nameWordFrequency: Map<string, number>;
}

function describeCorpus(records: readonly PpaRecord[]): Corpus {
  const live = records.filter(isLive);
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
  return { live, byName, vocabulary, nameWordFrequency };
}

function nameQuery(
  queryClass: QueryClass,
  q: string,
  record: PpaRecord,
  corpus: Corpus,
  note?: string,
): RelevanceQuery {
  const equivalent = (corpus.byName.get(foldText(record.project_name)) ?? [record]).map((r) => r.slug);
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
  const indexed = corpus.live.map((record) => ({
    record,
    name: foldedWords(record.project_name),
    location: foldedWords(record.location),
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
    ...take(suggestTyping(stream(11), corpus, false), perClass),
    ...take(suggestTyping(stream(12), corpus, true), perClass),
  ];
}
