// The operator classes of precise search (issue 59): queries made from the corpus like the other classes, each
// judged as a set against a plain-JavaScript oracle, not by the rank of one expected PPA. A query's precision is the
// share of what the API selected that the oracle selects; its recall the share of what the oracle selects that the
// API selected. The semantics are exact, so every floor is 1.00.
//   phrase:    "w1 w2", two adjacent words of a field: the live PPAs holding them next to each other, in order, in
//              one of the four fields (their words as the index cuts them).
//   exclusion: a -b: the API's own answer to a, less the PPAs holding b as a whole word anywhere q looks.
//   or:        a OR b: the API's answer to a, united with its answer to b.
//   qualifier: developer:w keeps every PPA whose developer holds w and selects none whose developer has no word
//              w names (as typed, as its start, or within the typos its length allows).
import type { PpaRecord } from '../../indexContract/record.js';
import { technologyWords } from '../../indexContract/text/canonical.js';
import { countryNameWords } from '../../indexContract/text/countryNames.js';
import { foldText } from '../../indexContract/text/fold.js';
import { standardTokens } from '../../indexContract/text/tokenizer.js';
import { parseListQuery } from '../../src/params/list.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { buildListSearch } from '../../src/queries/listSearch.js';
import { Random } from '../generate/random.js';
import { editDistance } from './queries.js';
import { isPastedNameRecord } from './corpus.js';

export const OPERATOR_CLASSES = ['phrase', 'exclusion', 'or', 'qualifier'] as const;
export type OperatorClass = (typeof OPERATOR_CLASSES)[number];

export interface OperatorQuery {
  operatorClass: OperatorClass;
  q: string;
  /** The oracle's set, from the records and (exclusion, or) the API's answers to the plain parts. */
  expected: (answer: (q: string) => Promise<Set<string>>) => Promise<Set<string>>;
}

export interface OperatorFigures {
  operatorClass: OperatorClass;
  queries: number;
  /** Mean precision and recall over the queries; exact: the share of queries where both are 1. */
  precision: number;
  recall: number;
  exact: number;
  /** The first queries that were not exact, for the report. */
  misses: string[];
}

/** Queries per operator class: each is judged as a whole set, so fewer than the ranked classes ask say as much. */
export const OPERATOR_QUERIES_PER_CLASS = 100;

const TEXT_FIELDS = ['project_name', 'developer', 'location', 'reference_code'] as const;
const tokens = (text: string | null | undefined): string[] => standardTokens(foldText(text ?? ''));
const WORD = /^\p{L}{4,}$/u;
/** Words held by more PPAs than this make sets too large to fetch whole (and say little). */
const MAX_SET = 2000;

const holdsSequence = (held: readonly string[], words: readonly string[]) =>
  held.some((_, start) => words.every((word, i) => held[start + i] === word));

/** A live record's words, cut once: each text field's, and those of its technology and country names. */
interface HeldWords {
  record: PpaRecord;
  fields: Record<(typeof TEXT_FIELDS)[number], string[]>;
  descriptors: Set<string>;
}

function heldWords(record: PpaRecord): HeldWords {
  const fields = Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, tokens(record[field])]),
  ) as HeldWords['fields'];
  const descriptors = new Set([
    ...technologyWords(record.technology),
    ...countryNameWords(record.country_code ?? null).flatMap((name) => name.split(' ')),
  ]);
  return { record, fields, descriptors };
}

const holdsWord = (held: HeldWords, word: string): boolean =>
  TEXT_FIELDS.some((field) => held.fields[field].includes(word)) || held.descriptors.has(word);

/** Whether `typed` names `word` in the developer: as typed, as its start (the word being typed), or within the typos. */
function namesInText(typed: string, word: string): boolean {
  if (word === typed || word.startsWith(typed)) return true;
  const letters = [...typed].length;
  const typos = letters >= 8 ? 2 : letters >= 5 ? 1 : 0;
  return typos > 0 && editDistance(typed, word) <= typos;
}

export function generateOperatorQueries(
  records: readonly PpaRecord[],
  { seed, perClass }: { seed: number; perClass: number },
): OperatorQuery[] {
  // The oracle reads every live PPA; the queries are drawn from those of the ranked classes (not the pasted names).
  const everyLive = records.filter((record) => record.published && record.active).map(heldWords);
  const live = everyLive.filter((held) => !isPastedNameRecord(held.record));
  // How many live PPAs hold each word anywhere in the four fields: the plain parts are taken among the rarer ones.
  const holders = new Map<string, number>();
  for (const held of live) {
    for (const word of new Set(TEXT_FIELDS.flatMap((field) => held.fields[field]))) {
      holders.set(word, (holders.get(word) ?? 0) + 1);
    }
  }
  const usable = [...holders]
    .filter(([word, count]) => WORD.test(word) && count <= MAX_SET / 4)
    .map(([w]) => w);
  const random = new Random(seed + 5959);
  const queries: OperatorQuery[] = [];
  const seen = new Set<string>();
  const add = (query: OperatorQuery) => {
    if (seen.has(query.q)) return;
    seen.add(query.q);
    queries.push(query);
  };

  for (let tries = 0; queries.length < perClass && tries < perClass * 20; tries++) {
    const held = random.pick(live).fields[random.pick(TEXT_FIELDS)];
    if (held.length < 2) continue;
    const start = random.int(0, held.length - 2);
    const words = held.slice(start, start + 2);
    if (!words.every((word) => WORD.test(word))) continue;
    add({
      operatorClass: 'phrase',
      q: `"${words.join(' ')}"`,
      expected: async () =>
        new Set(
          everyLive
            .filter((r) => TEXT_FIELDS.some((field) => holdsSequence(r.fields[field], words)))
            .map((r) => r.record.slug),
        ),
    });
  }

  const bySlug = new Map(everyLive.map((held) => [held.record.slug, held]));
  const holdersOf = new Map<string, HeldWords[]>();
  for (const held of live) {
    for (const word of new Set(TEXT_FIELDS.flatMap((field) => held.fields[field]))) {
      const list = holdersOf.get(word);
      if (list) list.push(held);
      else holdersOf.set(word, [held]);
    }
  }
  for (let tries = 0; queries.length < 2 * perClass && tries < perClass * 20; tries++) {
    const a = random.pick(usable);
    // b: a word some of a's holders hold too, so that leaving it out changes the answer.
    const held = random.pick(holdersOf.get(a)!);
    const others = TEXT_FIELDS.flatMap((field) => held.fields[field]).filter((w) => WORD.test(w) && w !== a);
    if (others.length === 0) continue;
    const b = random.pick(others);
    add({
      operatorClass: 'exclusion',
      q: `${a} -${b}`,
      expected: async (answer) =>
        new Set([...(await answer(a))].filter((slug) => !holdsWord(bySlug.get(slug)!, b))),
    });
  }

  for (let tries = 0; queries.length < 3 * perClass && tries < perClass * 20; tries++) {
    const a = random.pick(usable);
    const b = random.pick(usable);
    if (a === b) continue;
    add({
      operatorClass: 'or',
      q: `${a} OR ${b}`,
      expected: async (answer) => new Set([...(await answer(a)), ...(await answer(b))]),
    });
  }

  // The developer and the location: the fields a qualified word is looked for in by the fuzziness alone.
  const QUALIFIED = [
    ['developer', 'developer'],
    ['location', 'location'],
  ] as const;
  const qualifiedWords = QUALIFIED.map(([, field]) => [
    ...new Set(live.flatMap((held) => held.fields[field]).filter((w) => WORD.test(w))),
  ]);
  for (let tries = 0; queries.length < 4 * perClass && tries < perClass * 20; tries++) {
    const which = random.int(0, QUALIFIED.length - 1);
    const [qualifier, field] = QUALIFIED[which]!;
    const word = random.pick(qualifiedWords[which]!);
    const q = `${qualifier}:${word}`;
    add({
      operatorClass: 'qualifier',
      q,
      // Every PPA whose field holds the word; none whose field has no word it names. Those in between (a word it
      // names by a prefix or a typo) are the API's to keep: the oracle takes them as they come.
      expected: async (answer) => {
        const got = await answer(q);
        return new Set(
          everyLive
            .filter((held) => {
              const words = held.fields[field];
              return (
                words.includes(word) || (got.has(held.record.slug) && words.some((w) => namesInText(word, w)))
              );
            })
            .map((held) => held.record.slug),
        );
      },
    });
  }
  return queries;
}

/** Every slug the list selects for `q` (the API's own request, its page widened to the whole set). */
function answerOf(search: SearchGateway): (q: string) => Promise<Set<string>> {
  const answers = new Map<string, Promise<Set<string>>>();
  return (q) => {
    let answer = answers.get(q);
    if (answer === undefined) {
      const request = buildListSearch(parseListQuery(`q=${encodeURIComponent(q)}&per_page=1`));
      answer = search
        .search<{ slug: string }>({ ...request, size: MAX_SET * 2, _source: ['slug'] })
        .then((response) => new Set(response.hits.hits.map((hit) => hit._source?.slug ?? '')));
      answers.set(q, answer);
    }
    return answer;
  };
}

export async function runOperatorSuite(
  search: SearchGateway,
  records: readonly PpaRecord[],
  options: { seed: number; perClass: number },
): Promise<OperatorFigures[]> {
  const queries = generateOperatorQueries(records, options);
  const answer = answerOf(search);
  const scored: { query: OperatorQuery; precision: number; recall: number }[] = [];
  // A few at a time: the machine is shared.
  for (let at = 0; at < queries.length; at += 4) {
    const batch = queries.slice(at, at + 4).map(async (query) => {
      const [got, expected] = await Promise.all([answer(query.q), query.expected(answer)]);
      const both = [...got].filter((slug) => expected.has(slug)).length;
      return {
        query,
        precision: got.size === 0 ? (expected.size === 0 ? 1 : 0) : both / got.size,
        recall: expected.size === 0 ? 1 : both / expected.size,
      };
    });
    scored.push(...(await Promise.all(batch)));
  }
  return OPERATOR_CLASSES.map((operatorClass) => {
    const rows = scored.filter((row) => row.query.operatorClass === operatorClass);
    const mean = (pick: (row: (typeof rows)[number]) => number) =>
      rows.length === 0 ? 0 : rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
    const misses = rows.filter((row) => row.precision < 1 || row.recall < 1);
    return {
      operatorClass,
      queries: rows.length,
      precision: mean((row) => row.precision),
      recall: mean((row) => row.recall),
      exact: rows.length === 0 ? 0 : 1 - misses.length / rows.length,
      misses: misses
        .slice(0, 3)
        .map(
          (row) => `${row.query.q}: precision ${row.precision.toFixed(3)}, recall ${row.recall.toFixed(3)}`,
        ),
    };
  });
}

/** The operator classes as a table (console and markdown alike). */
export function operatorTable(figures: readonly OperatorFigures[]): string {
  const rows = figures.map(
    (row) =>
      `| ${row.operatorClass} | ${row.queries} | ${row.precision.toFixed(3)} | ${row.recall.toFixed(3)} | ${row.exact.toFixed(3)} |`,
  );
  return [
    '| operator class | queries | precision | recall | exact |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
