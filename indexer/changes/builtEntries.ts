// What a reindex wrote, noted as it writes it: the (slug, content hash) of every document, so that the comparison
// with the outgoing generation reads only that one from Elasticsearch (the incoming side was known before it was
// sent), and so that the outgoing walk is cut where these slugs say (elasticsearch/slugRanges.ts).
import type { ServedEntry } from '../elasticsearch/servedEntries.js';
import { ENTRIES_PER_PAGE } from '../elasticsearch/slugRanges.js';
import { compareBytes } from '../slugOrder.js';

/**
 * The noted entries, held in memory from the load to the swap. Each is kept as one flat string, "slug<TAB>hash",
 * a small fraction of what the validation pass holds (docs/performance.md gives the sizes), and sorted once when
 * the comparison starts.
 */
export class BuiltEntries {
  private readonly keys: string[] = [];
  /** Whether every slug is printable ASCII, as the record schema's pattern makes them (then a plain sort will do). */
  private ascii = true;
  private isSorted = true;

  add(slug: string, hash: string): void {
    const key = `${slug}\t${hash}`;
    // Reading a character makes V8 flatten the concatenation into one string now, instead of keeping the two
    // parts and a link (about half the bytes an entry).
    key.charCodeAt(0);
    this.keys.push(key);
    this.isSorted = false;
    if (this.ascii && !PRINTABLE_ASCII.test(slug)) this.ascii = false;
  }

  get size(): number {
    return this.keys.length;
  }

  /** The entries in byte order of the slug. */
  async *inByteOrder(): AsyncGenerator<ServedEntry> {
    for (const key of this.sorted()) {
      const tab = key.indexOf('\t');
      yield { slug: key.slice(0, tab), hash: key.slice(tab + 1) };
    }
  }

  /**
   * Every `per`-th slug in byte order: where to cut a walk of a generation that holds about the same slugs
   * (servedEntries), so that each range is about a page.
   */
  bounds(per: number = ENTRIES_PER_PAGE): string[] {
    const keys = this.sorted();
    const bounds: string[] = [];
    for (let i = per; i < keys.length; i += per) bounds.push(slugOfKey(keys[i]!));
    return bounds;
  }

  private sorted(): readonly string[] {
    if (this.isSorted) return this.keys;
    // For printable ASCII, code-unit order is byte order, and the tab, below every printable character, puts a
    // slug before the slugs it starts ("a-b" before "a-b-c").
    if (this.ascii) this.keys.sort();
    else this.keys.sort((a, b) => compareBytes(slugOfKey(a), slugOfKey(b)));
    this.isSorted = true;
    return this.keys;
  }
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const slugOfKey = (key: string): string => key.slice(0, key.indexOf('\t'));
