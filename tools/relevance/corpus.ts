// The relevance corpus: generated records (fixed seed) written to a temp file and indexed with the real reindex
// under a unique alias, so the suite measures the mapping and documents the indexer really writes. The names
// of the shared sample generator are then written the ways real registries write them (relevanceRecords):
// numerals as digits or Roman, sector abbreviations or their long forms, initials with periods, apostrophes,
// compound words; and developers get full corporate names. The shared generator stays as it is (the committed
// sample and many tests' oracles depend on it).
import type { Client } from '@elastic/elasticsearch';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { Random } from '../../tools/generate/random.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';

export interface CorpusOptions {
  seed: number;
  count: number;
}

/** 12,000 generated records: about 10,800 published (indexed) and 9,800 live. */
export const DEFAULT_CORPUS: CorpusOptions = { seed: 20261122, count: 12_000 };

/** Rewrites of a name's ending: [ending, replacements, chance]. Long forms and abbreviations both appear. */
const ENDING_REWRITES: readonly [RegExp, readonly string[], number][] = [
  [/Solar Park$/u, ['PV Park', 'Photovoltaic Park', 'SPP', 'Solar Power Plant', 'Solar PP'], 0.35],
  [/Solar PV Plant$/u, ['Solar Photovoltaic Plant', 'PV Plant'], 0.4],
  [/Solar Power Plant$/u, ['SPP', 'Solar PP'], 0.4],
  [/Photovoltaic Park$/u, ['PV Park'], 0.3],
  [/Hydroelectric Power Station$/u, ['Hydroelectric Power Plant', 'HEPP', 'Hydroelectric PP'], 0.45],
  [/Hydro Power Plant$/u, ['HPP', 'Hydropower Plant', 'Hydro PP'], 0.45],
  [/Combined Cycle Power Plant$/u, ['CCGT', 'Combined Cycle Gas Turbine Plant', 'CCGT Power Plant'], 0.5],
  [/Wind Farm$/u, ['WF', 'Windfarm'], 0.3],
  [/Wind Park$/u, ['Windpark'], 0.3],
  [/Thermal Power Plant$/u, ['Thermal PP', 'Thermal Powerplant'], 0.25],
  [/(?:Coal|Biomass|Emergency|Hybrid|HFO) Power Plant$/u, ['PP'], 0.2],
];
/** Numerals written after a name: a bare digit or Roman numeral, or after a word that usually precedes one. */
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];
const NUMBER_WORDS = ['', '', 'Unit', 'Phase', 'Block', 'Stage'];
/** Initials with periods, and words with apostrophes, as registries write company-style names. */
const INITIALS = ['P.E.', 'S.A.', 'J.V.', 'E.P.', 'A.G.', 'C.T.', 'N.V.', 'S.p.A.'];
const APOSTROPHE_NAMES = [
  "O'Neill",
  "O'Brien",
  "D'Arcy",
  "L'Étang",
  "Dell'Acqua",
  "N'Diaye",
  'M’Bour',
  "Ma'ale",
];
/** Compound words that people also write as two (queries.ts splits them). */
export const COMPOUND_WORDS: Readonly<Record<string, number>> = {
  Sunfield: 3,
  Riverbend: 5,
  Greenfield: 5,
  Northgate: 5,
  Stonebridge: 5,
  Clearwater: 5,
  Highveld: 4,
  Seaview: 3,
  Blackwater: 5,
  Sandhill: 4,
  Westbrook: 4,
  Fairhaven: 4,
};
/** Developers' full names: a country or invented stem, a sector, a function, a kind of company. */
const DEVELOPER_STEMS = [
  'Zambia',
  'Kenya',
  'Ghana',
  'Senegal',
  'Brazil',
  'Chile',
  'Mexico',
  'India',
  'Jordan',
  'Morocco',
  'Nigeria',
  'Andes',
  'Sahel',
  'Atlas',
  'Savanna',
  'Meridian',
  'Aurora',
  'Coastal',
  'Highland',
  'Delta',
  'Boreal',
  'Equator',
];
const DEVELOPER_SECTORS = ['Electricity', 'Power', 'Energy', 'Renewable'];
const DEVELOPER_FUNCTIONS = ['Supply', 'Generation', 'Development', 'Investment', 'Infrastructure'];
const DEVELOPER_KINDS = ['Corporation', 'Company', 'Holdings', 'Partners', 'Limited'];

function developerNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    names.add(
      [
        random.pick(DEVELOPER_STEMS),
        random.pick(DEVELOPER_SECTORS),
        random.pick(DEVELOPER_FUNCTIONS),
        random.pick(DEVELOPER_KINDS),
      ].join(' '),
    );
  }
  return [...names].sort();
}

/** The name as registries also write it (one rewrite or two, each with its chance). */
function rewriteName(random: Random, name: string): string {
  let rewritten = name;
  for (const [ending, replacements, chance] of ENDING_REWRITES) {
    if (ending.test(rewritten) && random.chance(chance)) {
      rewritten = rewritten.replace(ending, random.pick(replacements));
      break;
    }
  }
  if (random.chance(0.1)) {
    const value = random.int(1, 10);
    const word = random.pick(NUMBER_WORDS);
    const numeral = random.chance(0.5) ? String(value) : (ROMAN[value - 1] ?? 'I');
    rewritten = `${rewritten} ${word ? `${word} ` : ''}${numeral}`;
  }
  if (random.chance(0.06)) rewritten = `${rewritten} ${random.pick(INITIALS)}`;
  if (random.chance(0.05)) rewritten = `${random.pick(APOSTROPHE_NAMES)} ${rewritten}`;
  if (random.chance(0.07)) rewritten = `${random.pick(Object.keys(COMPOUND_WORDS))} ${rewritten}`;
  return rewritten;
}

/** The shared generator's records with the relevance corpus's names and developers (deterministic for a seed). */
export function relevanceRecords(options: CorpusOptions): PpaRecord[] {
  const random = new Random(options.seed ^ 0x5eed);
  const developers = developerNames(random, 480);
  const records = [...generateRecords(options)].map((record) => ({
    ...record,
    project_name: rewriteName(random, record.project_name),
    developer: random.pick(developers),
  }));
  return [...records, ...pastedNameRecords(options.seed, records)];
}

/**
 * Names that hold what the precise syntax reads as operators, as real registries write some (`PLTU -Jeneponto I &
 * II`, `"Blue Lake" GES`), each around a made-up word of its own: a `-` before a word, quotes, an "Or" between
 * words (an operator once the name is typed in capitals), a field name and a colon.
 */
const PASTED_NAME_FORMS: readonly ((own: string, other: string) => string)[] = [
  (own) => `PLTU -${own} I & II`,
  (own) => `"${own} Lake" GES`,
  (own, other) => `${own} -${other} Solar`,
  (own, other) => `${own} Or ${other} Hydro`,
  (own, other) => `${own} Location:${other} Wind Farm`,
  (own, other) => `"${own}" ${other} Power Plant`,
  (own) => `Code:${own} Biomass`,
  (own, other) => `${own} - ${other} "Phase 2"`,
];
/** Records of each form. */
const PASTED_NAMES_PER_FORM = 15;
/** Marks the records named so (their slugs): the ranked classes are drawn from the other records. */
export const PASTED_NAME_SLUG = 'pasted-name-';

/**
 * PASTED_NAME_FORMS written as the names of copies of live records (their own slugs, codes and developers), after the others
 * and from a stream of their own, so that every other record and every query drawn from them stay as they were.
 */
function pastedNameRecords(seed: number, records: readonly PpaRecord[]): PpaRecord[] {
  const random = new Random(seed ^ 0x9a57);
  const live = records.filter((record) => record.published && record.active);
  const known = new Set(
    records.flatMap((record) =>
      [record.project_name, record.location, record.developer].flatMap((text) => foldedWords(text)),
    ),
  );
  const made = new Set<string>();
  const word = (): string => {
    for (;;) {
      const letters = Array.from(
        { length: random.int(2, 3) },
        () => random.pick([...'bdfgklmnprstvz']) + random.pick([...'aeiou']),
      ).join('');
      const candidate = letters.charAt(0).toUpperCase() + letters.slice(1) + random.pick(['n', 'r', 'l', '']);
      if (!known.has(candidate.toLowerCase()) && !made.has(candidate)) {
        made.add(candidate);
        return candidate;
      }
    }
  };
  return PASTED_NAME_FORMS.flatMap((form, formIndex) =>
    Array.from({ length: PASTED_NAMES_PER_FORM }, (_, index) => {
      const copied = random.pick(live);
      const own = word();
      return {
        ...copied,
        slug: `${PASTED_NAME_SLUG}${formIndex + 1}-${index + 1}`,
        reference_code: `PN-${formIndex + 1}-${String(index + 1).padStart(3, '0')}`,
        project_name: form(own, word()),
        // A developer of its own: the developer_name class asks for every PPA of the corpus's developers.
        developer: `${own} Energy Holdings`,
      };
    }),
  );
}

/** Whether a record is one of the pasted-name records (relevanceRecords). */
export const isPastedNameRecord = (record: PpaRecord): boolean => record.slug.startsWith(PASTED_NAME_SLUG);

export function relevanceAlias(): string {
  return `relevance-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

export interface IndexedCorpus {
  records: PpaRecord[];
  alias: string;
  indexed: number;
  indexSeconds: number;
}

export async function buildCorpus(
  client: Client,
  alias: string,
  options: CorpusOptions,
): Promise<IndexedCorpus> {
  const records = relevanceRecords(options);
  const path = join(tmpdir(), `${alias}.ndjson`);
  try {
    const output = createWriteStream(path);
    await writeNdjson(records, output);
    output.end();
    await finished(output);
    const summary = await reindex({ client, alias, source: path });
    await client.indices.refresh({ index: alias });
    return { records, alias, indexed: summary.indexed, indexSeconds: summary.seconds };
  } finally {
    await rm(path, { force: true });
  }
}

/** Deletes the corpus index and the indexer's lock index (every index whose name starts with the alias). */
export async function dropCorpus(client: Client, alias: string): Promise<void> {
  const indices = await client.cat.indices({ index: `${alias}*`, format: 'json', h: 'index' });
  const names = indices.map((row) => row.index).filter((name): name is string => Boolean(name));
  if (names.length > 0) await client.indices.delete({ index: names });
}
