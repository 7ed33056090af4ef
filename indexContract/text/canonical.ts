// Canonical words of a name, shared by the indexer (name_canonical, name_compact, name_joined) and the API (how `q`
// and suggestions look typed words up), like fold.ts: the test distribution of Elasticsearch has no synonym or
// word-delimiter filter, so the forms that should meet are computed here, once, on both sides.
//
// Canonical words: folded ("São" → "sao"), punctuation inside a word dropped ("P.E." → "pe", "O'Neill" →
// "oneill"), numerals 1–10 written as digits ("II" → "2"), sector abbreviations written out ("PV" →
// "photovoltaic", "HPP" → "hydro power plant"). The compact form is those words without spaces, so that joined
// and split words meet too ("KafueGorge", "Hydro electric"). Beside the abbreviations, the words of each
// technology (TECHNOLOGY_WORDS), which a word of `q` may match besides the name.
import { foldText } from './fold.js';
import { foldedWords, standardTokens } from './tokenizer.js';

/**
 * Sector abbreviations and what they stand for (lowercase, folded words). Both ways: an abbreviation typed or
 * written in a name is read as its long form, so "Kafue PV" and "Kafue Photovoltaic" are the same name. To add
 * one, add a line (abbreviation: long form) and reindex: the indexer writes the canonical forms.
 */
export const SECTOR_ABBREVIATIONS: Readonly<Record<string, string>> = {
  pv: 'photovoltaic',
  hpp: 'hydro power plant',
  hepp: 'hydroelectric power plant',
  spp: 'solar power plant',
  pp: 'power plant',
  ccgt: 'combined cycle gas turbine',
  wf: 'wind farm',
};

/**
 * The words people use for each technology (record.md's value set), beside its own ("solar_pv": solar, pv): a
 * word of `q` may match the PPA's technology by any of them ("Tobel hydro" finds Tobel, a hydro plant whose name
 * does not say so). The indexer writes their folded words into `technology_words`; several words in one entry
 * ("natural gas") are indexed as separate words. An open-set value not listed here is matched by its own words.
 * To add a word, add it here and reindex. Words that name no technology in particular ("power", "plant",
 * "energy", "turbine") are left out on purpose: each would let a word of `q` match most of the catalogue.
 */
export const TECHNOLOGY_WORDS: Readonly<Record<string, readonly string[]>> = {
  solar_pv: ['solar', 'PV', 'photovoltaic', 'photovoltaics', 'SPP'],
  wind: ['wind', 'windfarm', 'windpark', 'WF'],
  hydro: ['hydro', 'hydroelectric', 'hydroelectricity', 'hydropower', 'HPP', 'HEPP'],
  geothermal: ['geothermal'],
  gas: ['gas', 'natural gas', 'CCGT', 'OCGT', 'combined cycle', 'LNG', 'thermal'],
  oil_hfo: ['oil', 'HFO', 'heavy fuel oil', 'fuel oil', 'thermal'],
  diesel: ['diesel', 'gasoil', 'thermal'],
  coal: ['coal', 'lignite', 'thermal'],
  biomass: ['biomass', 'bagasse', 'bioenergy'],
  waste: ['waste', 'WtE', 'landfill', 'biogas', 'incineration'],
  battery_storage: ['battery', 'batteries', 'storage', 'BESS'],
  hybrid: ['hybrid'],
};

/** A technology's own words ("oil_hfo": oil, hfo) and those of TECHNOLOGY_WORDS, folded, each once. */
function wordsOfTechnology(technology: string): readonly string[] {
  const written = [technology.replace(/_/gu, ' '), ...(TECHNOLOGY_WORDS[technology] ?? [])];
  return Object.freeze([...new Set(written.flatMap((text) => foldedWords(text)))]);
}

/** The words of every technology TECHNOLOGY_WORDS names, made once at import: the indexer asks for every document. */
const WORDS_BY_TECHNOLOGY: ReadonlyMap<string, readonly string[]> = new Map(
  Object.keys(TECHNOLOGY_WORDS).map((technology) => [technology, wordsOfTechnology(technology)]),
);

/** The folded words of a technology: its own ("oil_hfo": oil, hfo) and those of TECHNOLOGY_WORDS, each once. */
export function technologyWords(technology: string): string[] {
  return [...(WORDS_BY_TECHNOLOGY.get(technology) ?? wordsOfTechnology(technology))];
}

/** Roman numerals I–X as the digits they stand for; 1–10 meet whichever way they are written. */
export const ROMAN_NUMERALS: Readonly<Record<string, string>> = {
  i: '1',
  ii: '2',
  iii: '3',
  iv: '4',
  v: '5',
  vi: '6',
  vii: '7',
  viii: '8',
  ix: '9',
  x: '10',
};
const DIGITS_TO_ROMAN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ROMAN_NUMERALS).map(([roman, digits]) => [digits, roman]),
);

/** Punctuation that may stand inside a word and is dropped there: periods, apostrophes, colons, middle dots. */
const INNER_PUNCTUATION = /['’.:·,;]/gu;

/** One folded word (a standard token) in canonical form: one or more words. */
function canonicalOf(token: string): string[] {
  const word = token.replace(INNER_PUNCTUATION, '');
  if (word === '') return [];
  const digits = ROMAN_NUMERALS[word];
  if (digits !== undefined) return [digits];
  const longForm = SECTOR_ABBREVIATIONS[word];
  return longForm === undefined ? [word] : longForm.split(' ');
}

/** The folded words of a text as written, punctuation inside words dropped: "P.E. SolarPV" → pe, solarpv. */
export function writtenWords(text: string): string[] {
  return writtenOfTokens(standardTokens(foldText(text)));
}

/** writtenWords of a text already cut into standard tokens of its folded form. */
export function writtenOfTokens(tokens: readonly string[]): string[] {
  return tokens.map((token) => token.replace(INNER_PUNCTUATION, '')).filter(Boolean);
}

/** The canonical words of a text: "Kafue Gorge II HPP" → kafue, gorge, 2, hydro, power, plant. */
export function canonicalWords(text: string): string[] {
  return canonicalOfTokens(standardTokens(foldText(text)));
}

/** canonicalWords of a text already cut into standard tokens of its folded form. */
export function canonicalOfTokens(tokens: readonly string[]): string[] {
  return tokens.flatMap(canonicalOf);
}

/** The canonical words without spaces: the key on which joined and split words, numerals and abbreviations meet. */
export function compactForm(text: string): string {
  return canonicalWords(text).join('');
}

/**
 * Each pair of adjacent words written as one, canonical and as written ("kafuegorge"; "solarphotovoltaic" and
 * "solarpv" for "Solar PV"): names typed with two words joined.
 */
export function joinedPairs(text: string): string[] {
  return joinedPairsOf(canonicalWords(text), writtenWords(text));
}

/** joinedPairs from a text's canonical and written words (the indexer has both already). */
export function joinedPairsOf(canonical: readonly string[], written: readonly string[]): string[] {
  const pairs = new Set<string>();
  for (const words of [canonical, written]) {
    for (let index = 0; index + 1 < words.length; index++) pairs.add(`${words[index]}${words[index + 1]}`);
  }
  return [...pairs];
}

/** The other way of writing a numeral 1–10 ("2" ↔ "II", lowercase), or undefined for any other word. */
export function otherNumeral(word: string): string | undefined {
  const folded = word.toLowerCase();
  return ROMAN_NUMERALS[folded] ?? DIGITS_TO_ROMAN[folded];
}
