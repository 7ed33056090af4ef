// Typed queries (./typedText.ts) sorted by what the API answers them: those that find something (hits) and those
// that find nothing (misses), for the misses suite (bench/misses.ts).
import type { PpaRecord } from '../../indexContract/record.js';
import { Random } from '../../tools/generate/random.js';
import { mixRequest, type MixRequest } from './requestMix.js';
import { typedText } from './typedText.js';

export type TypedKind = 'list' | 'suggest';
export type Outcome = 'hit' | 'miss';

export type TypedSets = Record<
  TypedKind,
  Record<Outcome, MixRequest[]> & {
    offered: number;
    /** A miss the API offered a rewrite for (a path): asked of an API, it says whether its vocabulary is read. */
    offeredExample?: string;
  }
>;

const requestOf = (kind: TypedKind, q: string): MixRequest =>
  kind === 'list'
    ? mixRequest('list_q', `q=${encodeURIComponent(q)}`)
    : mixRequest('suggest', `q=${encodeURIComponent(q)}&limit=10`);

/** What the API answered a request: found nothing, and offered a rewrite. */
async function outcomeOf(apiUrl: string, kind: TypedKind, request: MixRequest) {
  const response = await fetch(`${apiUrl}${request.apiPath}`);
  if (!response.ok) throw new Error(`${request.apiPath}: HTTP ${response.status}`);
  const body = (await response.json()) as {
    data: unknown[];
    meta?: { total: number; did_you_mean?: unknown };
    did_you_mean?: unknown;
  };
  const empty = kind === 'list' ? body.meta!.total === 0 : body.data.length === 0;
  const offer = kind === 'list' ? body.meta?.did_you_mean : body.did_you_mean;
  const offered = typeof offer === 'object' && offer !== null;
  return { outcome: (empty ? 'miss' : 'hit') as Outcome, offered };
}

/**
 * Distinct typed queries, sorted by what the API at `apiUrl` answers: `needed` hits and `needed` misses of each
 * kind (list, suggest), four asked at a time.
 */
export async function sortedTypedQueries(
  apiUrl: string,
  records: readonly PpaRecord[],
  options: { seed: number; needed: number; log: (line: string) => void },
): Promise<TypedSets> {
  const sets = {} as TypedSets;
  for (const kind of ['list', 'suggest'] as const) {
    const random = new Random(options.seed + (kind === 'list' ? 101 : 202));
    const set: TypedSets[TypedKind] = { hit: [], miss: [], offered: 0 };
    const seen = new Set<string>();
    const full = () => set.hit.length >= options.needed && set.miss.length >= options.needed;
    for (let tries = 0; !full() && tries < options.needed * 40; tries += 4) {
      const batch = Array.from({ length: 4 }, () => requestOf(kind, typedText(random, random.pick(records))));
      const fresh = batch.filter((request) => !seen.has(request.apiPath) && seen.add(request.apiPath));
      const outcomes = await Promise.all(fresh.map((request) => outcomeOf(apiUrl, kind, request)));
      for (const [index, { outcome, offered }] of outcomes.entries()) {
        if (set[outcome].length >= options.needed) continue;
        set[outcome].push(fresh[index]!);
        if (outcome === 'miss' && offered) {
          set.offered++;
          set.offeredExample ??= fresh[index]!.apiPath;
        }
      }
    }
    if (!full()) throw new Error(`${kind}: only ${set.hit.length} hits and ${set.miss.length} misses`);
    options.log(
      `${kind}: ${set.hit.length} hits, ${set.miss.length} misses (${set.offered} offered a rewrite)`,
    );
    sets[kind] = set;
  }
  return sets;
}

/**
 * Waits until the API at `apiUrl` offers a rewrite for `path` (a miss another API offered one for): its vocabulary,
 * read in the background once it starts, is in, so that its misses are measured with their "did you mean".
 */
export async function vocabularyRead(apiUrl: string, path: string | undefined): Promise<void> {
  if (path === undefined) return;
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const body = (await (await fetch(`${apiUrl}${path}`)).json()) as { meta: { did_you_mean?: unknown } };
    if (typeof body.meta.did_you_mean === 'object' && body.meta.did_you_mean !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the API offered no rewrite for ${path} within 60 s: its vocabulary was not read`);
}
