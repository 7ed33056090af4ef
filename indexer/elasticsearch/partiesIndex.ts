// The parties of a generation (indexContract/parties.ts), in an index of their own beside the PPAs:
// `<alias>-parties-<timestamp>`, the same timestamp as the PPA index, behind the alias `<alias>-parties` that moves
// with the PPAs' alias (aliases.ts). A reindex builds every party from the new PPA index once it is loaded and caught
// up; sync rebuilds the parties a batch touched (named by the documents before and after it) from the live PPA
// index once the batch is searchable. Either way a party is tallied from every active PPA naming it, so its figures
// are the sums over its PPAs.
import type { Client, estypes } from '@elastic/elasticsearch';
import { readPartiesDefinition } from '../../indexContract/mapping.js';
import {
  PARTY_IDS_FIELD,
  PARTY_PPA_SOURCE,
  partiesIndexOf,
  partyIdsOfPpa,
  partyTally,
  tallyParties,
  type PartyDocument,
  type PartyPpa,
} from '../../indexContract/parties.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { Change } from './changeBulk.js';
import { BulkRejectedError } from '../errors.js';

const PAGE = 5_000;
const BULK = 1_000;
/** Ids a terms query of a rebuild names at once (far below index.max_terms_count, 65,536). */
const IDS_PER_QUERY = 1_000;

const foldName = (name: string): string => foldText(name).replace(/\s+/gu, ' ').trim();

/** The active PPAs of `index` matching `query`, a page at a time in slug order. */
async function* partyPpas(
  client: Client,
  index: string,
  query: estypes.QueryDslQueryContainer,
): AsyncGenerator<PartyPpa> {
  let after: estypes.SortResults | undefined;
  for (;;) {
    const response = await client.search<PartyPpa>({
      index,
      size: PAGE,
      query: { bool: { filter: [{ term: { active: true } }, query] } },
      sort: [{ slug: 'asc' }],
      _source: [...PARTY_PPA_SOURCE],
      ...(after ? { search_after: after } : {}),
    });
    const hits = response.hits.hits;
    for (const hit of hits) yield normalized(hit._source!);
    if (hits.length < PAGE) return;
    after = hits[hits.length - 1]!.sort;
  }
}

/** A document of an older contract may lack a group field or a fiscal key. */
function normalized(source: Partial<PartyPpa>): PartyPpa {
  return {
    slug: source.slug!,
    active: source.active ?? false,
    group_developer: source.group_developer ?? [],
    group_offtaker: source.group_offtaker ?? [],
    group_procuring_entity: source.group_procuring_entity ?? [],
    capacity_mw: source.capacity_mw ?? 0,
    country_code: source.country_code ?? null,
    financial_close_year: source.financial_close_year ?? null,
    fiscal: {
      annual_payment_obligation_usd: source.fiscal?.annual_payment_obligation_usd ?? null,
      guaranteed_amount_usd: source.fiscal?.guaranteed_amount_usd ?? null,
    },
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function writeParties(
  client: Client,
  index: string,
  parties: readonly PartyDocument[],
  gone: readonly string[] = [],
): Promise<void> {
  const operations: object[] = [
    ...parties.flatMap((party) => [{ index: { _index: index, _id: party.id } }, party]),
    ...gone.map((id) => ({ delete: { _index: index, _id: id } })),
  ];
  for (let start = 0; start < operations.length; start += BULK * 2) {
    const response = await client.bulk({
      operations: operations.slice(start, start + BULK * 2),
      filter_path: 'errors,items.*.status,items.*.error.type,items.*.error.reason',
    });
    if (!response.errors) continue;
    const failed = (response.items ?? [])
      .map((item) => item.index ?? item.delete)
      .find((result) => result && result.status >= 300 && result.status !== 404);
    if (failed)
      throw new BulkRejectedError(`Elasticsearch refused a party: ${failed.error?.type ?? failed.status}`);
  }
}

/** Creates the parties' index of the PPA index `ppaIndex` and fills it from every active PPA. Returns the parties. */
export async function buildParties(client: Client, alias: string, ppaIndex: string): Promise<number> {
  const index = partiesIndexOf(alias, ppaIndex);
  const definition = readPartiesDefinition();
  await client.indices.create({
    index,
    settings: {
      ...definition.settings,
      // A copy on another node as soon as there is one, as the PPA index gets at go-live.
      index: { ...definition.settings.index, number_of_replicas: undefined, auto_expand_replicas: '0-1' },
    },
    mappings: definition.mappings,
  });
  await client.indices.refresh({ index: ppaIndex });
  // Fed page by page: every active PPA is read back, never held at once.
  const tally = partyTally(foldName);
  for await (const ppa of partyPpas(client, ppaIndex, { match_all: {} })) tally.add(ppa);
  const parties = tally.documents();
  await writeParties(client, index, parties);
  await client.indices.refresh({ index });
  return parties.length;
}

/** The parties a batch of sync's changes touches: those of the documents it replaces or deletes, and of the new. */
export async function partiesTouched(
  client: Client,
  ppaIndex: string,
  changes: readonly Change[],
): Promise<Set<string>> {
  const touched = new Set<string>();
  for (const change of changes)
    if (change.kind === 'write') for (const id of partyIdsOfPpa(change.document as PartyPpa)) touched.add(id);
  if (changes.length === 0) return touched;
  const before = await client.mget<Partial<PartyPpa>>({
    index: ppaIndex,
    ids: changes.map((change) => change.id),
    _source: [...PARTY_PPA_SOURCE],
  });
  for (const doc of before.docs)
    if ('found' in doc && doc.found && doc._source)
      for (const id of partyIdsOfPpa(normalized(doc._source))) touched.add(id);
  return touched;
}

/**
 * Rebuilds the parties `ids` of the PPA index `ppaIndex` from its active PPAs as they are searchable now; a party
 * none names any more is deleted. Nothing happens on a generation built before parties (it has no parties' index).
 */
export async function rebuildParties(
  client: Client,
  alias: string,
  ppaIndex: string,
  ids: ReadonlySet<string>,
): Promise<void> {
  const index = partiesIndexOf(alias, ppaIndex);
  if (ids.size === 0 || !(await client.indices.exists({ index }))) return;
  await client.indices.refresh({ index: ppaIndex });
  const all = [...ids];
  for (let start = 0; start < all.length; start += IDS_PER_QUERY) {
    const chunk = all.slice(start, start + IDS_PER_QUERY);
    const ppas = await collect(partyPpas(client, ppaIndex, { terms: { [PARTY_IDS_FIELD]: chunk } }));
    const parties = tallyParties(ppas, foldName, new Set(chunk));
    const kept = new Set(parties.map((party) => party.id));
    await writeParties(
      client,
      index,
      parties,
      chunk.filter((id) => !kept.has(id)),
    );
  }
  await client.indices.refresh({ index });
}
