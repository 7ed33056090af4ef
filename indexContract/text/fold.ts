// Accent and case folding shared by the indexer (what it writes) and the API (what it queries):
// the test distribution of Elasticsearch has no asciifolding filter, so folding happens here, once.

const COMBINING_MARKS = /\p{M}/gu;

// Letters that NFKD does not decompose into a base letter plus a mark.
const EXTRA_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const EXTRA_FOLD_PATTERN = new RegExp(`[${Object.keys(EXTRA_FOLDS).join('')}]`, 'g');

// NFKD leaves printable ASCII as it is, and most names are ASCII: lowercasing is all they need (the indexer's
// hot path). Anything else, control characters included, takes the general path.
const ASCII_ONLY = /^[\t\n\r -~]*$/;

/** The name sort key of the contract: NFKD, combining marks removed, lowercased (compared by code point). */
export function nameSortKey(name: string): string {
  if (ASCII_ONLY.test(name)) return name.toLowerCase();
  return name.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
}

/** Folds text for matching: "São João" and "SAO JOAO" both become "sao joao". */
export function foldText(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return nameSortKey(text).replace(EXTRA_FOLD_PATTERN, (letter) => EXTRA_FOLDS[letter] ?? letter);
}
