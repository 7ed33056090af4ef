// The lookups of what is served, each one small request to Elasticsearch outside admission control (they are not a
// client's search): the generation behind the alias, the change log's head with sync's state, whether the alias
// exists, and the pages of the live index's vocabulary (read once per generation, in the background). Only the live state (./liveState.ts), readiness and the metrics make them, each at a bounded rate.
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { changeLogIndexName, HEAD_ID, type ChangeLogHead } from '../../indexContract/changeLog.js';
import { DATA_VERSION_FIELD, generationName } from '../../indexContract/dataVersion.js';
import { SYNC_GUARD_FIELD, type SyncGuardState } from '../../indexContract/syncGuard.js';
import { VOCABULARY_FIELD } from '../../indexContract/fields.js';
import type { PeerFences } from '../../indexContract/flags.js';
import { judgeContract, type ContractMeta, type ContractReading } from '../../indexContract/contract.js';
import { searchOutageReason } from '../gateway/clientErrors.js';

export interface SearchReadiness {
  /** The cluster answered. */
  cluster: boolean;
  /** The alias (ES_INDEX) exists. */
  alias: boolean;
  /** Why not ready, in words safe to show a client. */
  detail?: string;
}

/** What the indexer says about the served set beside the documents: the change log's head and sync's state. */
export interface ServedState {
  /** null: the change log does not exist yet (no reindex or sync of this release has run). */
  head: ChangeLogHead | null;
  /** Set while sync holds back a run that would remove more than --max-removed. */
  syncGuard: SyncGuardState | null;
  /** Where sync's last complete run read up to (null: the live index was not built from PostgreSQL). */
  highWaterMark: string | null;
}

export interface LiveLookups {
  /** The change log's head and sync's state, read together (two small lookups). */
  servedState(): Promise<ServedState>;
  /** Whether the cluster answers and the alias exists. */
  ready(): Promise<SearchReadiness>;
  /** The concrete index behind the alias (null when the alias is missing): which generation is served. */
  liveIndex(): Promise<string | null>;
  /**
   * What the served answers are computed from, in one lookup: the concrete index behind the alias and its data
   * version (moved on by every sync that changed documents), as `generationName()`; null when the alias is missing.
   */
  liveGeneration(): Promise<string | null>;
  /**
   * The live index's contract (its _meta's version and release, the fields of its mapping) judged against this
   * release's: served fully, served with a reindex recommended, or not to be served by this API. null: no alias.
   */
  indexContract(): Promise<ContractReading | null>;
  /**
   * One page of the words the live index's active PPAs hold (the `vocabulary` field), in word order, from after
   * `after`: what "did you mean" rewrites `q` towards (./vocabularyWatcher.ts walks them).
   */
  vocabularyPage(after: string | undefined): Promise<VocabularyPage>;
  /**
   * The red flags' peer fences stored with an index (its _meta's `flag_fences`, computed by its reindex): the same
   * fences sync flags with. `index`: a concrete generation; the live one when absent. null: no such index, or one
   * built before the flags.
   */
  flagFences(index?: string): Promise<PeerFences | null>;
}

/** A page of the vocabulary: each word with the active PPAs holding it; `after` the last word (none: the end). */
export interface VocabularyPage {
  words: [string, number][];
  after: string | undefined;
}

/** Words per page of the vocabulary walk: well under Elasticsearch's bucket limit. */
export const VOCABULARY_PAGE_WORDS = 10_000;

const missing = (error: unknown) => error instanceof errors.ResponseError && error.statusCode === 404;

/** Where every lookup goes and how: the alias, with a lookup's own timeout and no retry. */
interface LookupTarget {
  client: Client;
  alias: string;
  requestOptions: { requestTimeout: number; maxRetries: number };
}

export function createLiveLookups({
  client,
  alias,
  requestTimeoutMs,
}: {
  client: Client;
  alias: string;
  requestTimeoutMs: number;
}): LiveLookups {
  const target: LookupTarget = {
    client,
    alias,
    requestOptions: { requestTimeout: requestTimeoutMs, maxRetries: 0 },
  };
  return {
    liveIndex: () => liveIndexOf(target),
    servedState: () => servedStateOf(target),
    liveGeneration: () => liveGenerationOf(target),
    indexContract: () => indexContractOf(target),
    ready: () => readinessOf(target),
    vocabularyPage: (after) => vocabularyPageOf(target, after),
    flagFences: (index) => flagFencesOf(target, index),
  };
}

async function flagFencesOf(
  { client, alias, requestOptions }: LookupTarget,
  index: string = alias,
): Promise<PeerFences | null> {
  let mappings: estypes.IndicesGetMappingResponse;
  try {
    mappings = await client.indices.getMapping(
      { index, filter_path: ['*.mappings._meta.flag_fences'] },
      requestOptions,
    );
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  const fences = Object.values(mappings)[0]?.mappings._meta?.flag_fences as PeerFences | undefined;
  return fences ?? null;
}

async function vocabularyPageOf(
  { client, alias, requestOptions }: LookupTarget,
  after: string | undefined,
): Promise<VocabularyPage> {
  const response = await client.search(
    {
      index: alias,
      size: 0,
      track_total_hits: false,
      query: { term: { active: true } },
      aggs: {
        words: {
          composite: {
            size: VOCABULARY_PAGE_WORDS,
            sources: [{ word: { terms: { field: VOCABULARY_FIELD } } }],
            ...(after === undefined ? {} : { after: { word: after } }),
          },
        },
      },
    },
    requestOptions,
  );
  const words = response.aggregations?.words as estypes.AggregationsCompositeAggregate | undefined;
  const buckets = (words?.buckets ?? []) as estypes.AggregationsCompositeBucket[];
  return {
    words: buckets.map((bucket) => [String(bucket.key.word), bucket.doc_count]),
    // A short page is the last: no need to ask once more for an empty one.
    after:
      buckets.length < VOCABULARY_PAGE_WORDS ? undefined : (words?.after_key?.word as string | undefined),
  };
}

async function liveIndexOf({ client, alias, requestOptions }: LookupTarget): Promise<string | null> {
  try {
    const aliases = await client.indices.getAlias({ name: alias }, requestOptions);
    return Object.keys(aliases)[0] ?? null;
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
}

async function servedStateOf({ client, alias, requestOptions }: LookupTarget): Promise<ServedState> {
  const [head, meta] = await Promise.all([
    client
      .get<{ log: ChangeLogHead }>({ index: changeLogIndexName(alias), id: HEAD_ID }, requestOptions)
      .then((found) => found._source?.log ?? null)
      .catch((error: unknown) => {
        if (missing(error)) return null;
        throw error;
      }),
    client.indices
      .getMapping(
        {
          index: alias,
          filter_path: [`*.mappings._meta.${SYNC_GUARD_FIELD}`, '*.mappings._meta.high_water_mark'],
        },
        requestOptions,
      )
      .catch((error: unknown) => {
        if (missing(error)) return {};
        throw error;
      }),
  ]);
  const state = Object.values(meta as estypes.IndicesGetMappingResponse)[0]?.mappings._meta ?? {};
  return {
    head,
    syncGuard: (state[SYNC_GUARD_FIELD] as SyncGuardState | undefined) ?? null,
    highWaterMark: typeof state.high_water_mark === 'string' ? state.high_water_mark : null,
  };
}

async function liveGenerationOf(target: LookupTarget): Promise<string | null> {
  const { client, alias, requestOptions } = target;
  let mappings: estypes.IndicesGetMappingResponse;
  try {
    // `dynamic` is in every mapping of the contract: it keeps the index's name in the filtered answer when the
    // index has no data version yet.
    mappings = await client.indices.getMapping(
      { index: alias, filter_path: ['*.mappings.dynamic', `*.mappings._meta.${DATA_VERSION_FIELD}`] },
      requestOptions,
    );
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  const [index, state] = Object.entries(mappings)[0] ?? [];
  if (index === undefined) {
    // An index of another mapping (no `dynamic`): its name alone.
    const named = await liveIndexOf(target);
    return named === null ? null : generationName(named, 0);
  }
  const version = state?.mappings._meta?.[DATA_VERSION_FIELD];
  return generationName(index, typeof version === 'number' ? version : 0);
}

async function indexContractOf({
  client,
  alias,
  requestOptions,
}: LookupTarget): Promise<ContractReading | null> {
  let mappings: estypes.IndicesGetMappingResponse;
  try {
    mappings = await client.indices.getMapping(
      {
        index: alias,
        filter_path: [
          '*.mappings._meta.contract_version',
          '*.mappings._meta.contract_compatible_from',
          '*.mappings._meta.release',
          '*.mappings.properties.*.type',
        ],
      },
      requestOptions,
    );
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  const mapping = Object.values(mappings)[0]?.mappings;
  if (!mapping) return null;
  return judgeContract((mapping._meta ?? {}) as Partial<ContractMeta>, Object.keys(mapping.properties ?? {}));
}

async function readinessOf({ client, alias, requestOptions }: LookupTarget): Promise<SearchReadiness> {
  try {
    const exists = await client.indices.exists({ index: alias }, requestOptions);
    return exists ? { cluster: true, alias: true } : { cluster: true, alias: false, detail: 'alias missing' };
  } catch (error) {
    const reason = searchOutageReason(error);
    if (error instanceof errors.ResponseError && !reason) {
      return { cluster: false, alias: false, detail: `answered HTTP ${error.statusCode ?? 'error'}` };
    }
    return { cluster: false, alias: false, detail: reason ?? 'failed' };
  }
}
