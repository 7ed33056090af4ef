// Slugs in byte order, the order both sides sort by (Elasticsearch's keyword order and PostgreSQL's COLLATE "C"):
// the comparison every merge and range cut of slugs uses, and the merge that finds documents whose row no longer
// exists, so neither list is held in memory. A shared module: it imports nothing of the indexer.

/**
 * Byte order of the UTF-8 forms, which both sides sort by. UTF-16 code units below the surrogates (U+D800) order
 * as UTF-8 bytes do, so the first differing unit decides unless one of the two is a surrogate or above; only
 * then are the strings encoded, which costs several times more than comparing units.
 */
export function compareBytes(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x - y;
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  }
  return a.length - b.length;
}

/** The slugs of `indexed` that are not in `rows`; both iterables ascend in byte order. */
export async function* vanishedSlugs(
  indexed: AsyncIterable<string>,
  rows: AsyncIterable<string>,
): AsyncGenerator<string> {
  const rowIterator = rows[Symbol.asyncIterator]();
  let row = await rowIterator.next();
  try {
    for await (const slug of indexed) {
      while (!row.done && compareBytes(row.value, slug) < 0) row = await rowIterator.next();
      if (row.done || row.value !== slug) yield slug;
    }
  } finally {
    await rowIterator.return?.();
  }
}
