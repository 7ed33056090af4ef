// What people type into a search box, slips included: the shapes of typed queries the benchmarks send. A slip past
// what the forgiving match forgives finds nothing, and a miss is what "did you mean" is asked for
// (src/queries/didYouMean.ts), so a mix without them never measures it (issue 72): the request mix draws a fifth
// of its text searches from `slippedText`, and the misses suite (bench/misses.ts, ./typedQueries.ts) sends hits and
// misses of the same shapes side by side.
import type { PpaRecord } from '../../indexContract/record.js';
import type { Random } from '../../tools/generate/random.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const VOWELS = 'aeiou';

/** A made-up word of `length` letters, pronounceable (consonant, vowel, …): nothing the index holds, mostly. */
export function madeUpWord(random: Random, length: number): string {
  let word = '';
  for (let index = 0; index < length; index++) {
    const letters = index % 2 === 0 ? LETTERS.replace(/[aeiou]/g, '') : VOWELS;
    word += letters[random.int(0, letters.length - 1)];
  }
  return word;
}

/** `word` with `edits` letters replaced at distinct places after the first: past the forgiving match at 3. */
function garbled(random: Random, word: string, edits: number): string {
  const letters = [...word];
  const places = random.sample(
    letters.map((_, index) => index).slice(1),
    Math.min(edits, letters.length - 1),
  );
  for (const place of places) letters[place] = LETTERS[random.int(0, LETTERS.length - 1)]!;
  return letters.join('');
}

/** The name as typed so far: its first words and the start of the next (at least one letter of it). */
function asTyped(random: Random, name: string): string[] {
  const words = name.split(' ').filter(Boolean);
  const at = random.int(0, words.length - 1);
  const last = words[at]!;
  return [...words.slice(0, at), last.slice(0, random.int(Math.min(3, last.length), last.length))];
}

/** One slip a person makes past what the forgiving match forgives: the name's words with it. */
const SLIPS: readonly ((random: Random, words: string[]) => string[])[] = [
  // three letters wrong in the longest word
  (random, words) => {
    const longest = words.reduce(
      (best, word, index) => (word.length > words[best]!.length ? index : best),
      0,
    );
    return words.map((word, index) => (index === longest ? garbled(random, word, 3) : word));
  },
  // a word the index does not hold, among the name's
  (random, words) => {
    const at = random.int(0, words.length);
    return [...words.slice(0, at), madeUpWord(random, random.int(5, 8)), ...words.slice(at)];
  },
  // gibberish alone
  (random) => [madeUpWord(random, random.int(4, 9)), ...(random.chance(0.5) ? [madeUpWord(random, 5)] : [])],
  // words run together
  (_, words) => (words.length > 2 ? [words.slice(0, 3).join(''), ...words.slice(3)] : [words.join('')]),
];

/** A query that most likely finds nothing: a live record's name, as typed so far, with one slip of SLIPS. */
export function slippedText(random: Random, record: PpaRecord): string {
  return random.pick(SLIPS)(random, asTyped(random, record.project_name)).join(' ');
}

/** A typed query of the misses suite's shapes: as typed so far, with one typo, or with a slip (half of them). */
export function typedText(random: Random, record: PpaRecord): string {
  if (random.chance(0.5)) return slippedText(random, record);
  const words = asTyped(random, record.project_name);
  if (random.chance(0.5)) return words.join(' ');
  return words
    .map((word, index) => (index === 0 && word.length >= 5 ? garbled(random, word, 1) : word))
    .join(' ');
}
