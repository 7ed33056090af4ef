// Finds documents whose row no longer exists: a merge of two slug lists sorted the same way (Elasticsearch's
// keyword order and PostgreSQL's COLLATE "C" both order by bytes), so neither list is held in memory.

/** Byte order of the UTF-8 forms, which both sides sort by. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
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
