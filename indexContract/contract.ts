// The index contract's version: what an index built by this release holds, recorded in its _meta with the release
// that built it, so an API of another release can tell what it is serving. A version is added when the documents
// or the mapping change in a way a reader depends on; `CONTRACT_COMPATIBLE_FROM` is the oldest contract an API may
// serve this index with (older APIs only ignore what they do not know, so it stays 1 while versions only add).
import { readFileSync } from 'node:fs';
import { readIndexDefinition } from './mapping.js';
import { projectFile } from './projectFile.js';

/** This release (package.json's version): in the OpenAPI document, `ppa-indexer --version` and every index built. */
export const RELEASE: string = (
  JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string }
).version;

/**
 * 1: every index built before versions were recorded (no `contract_version` in _meta).
 * 2: `contract_version`, `contract_compatible_from` and `release` in _meta; the content hash's version
 *    (`content_hash_version`), so a comparison knows when a stored hash can be trusted.
 * 3: the roll-ups' group fields (`group_developer`, … indexContract/groupFields.ts): an older index groups every PPA
 *    under `key: null` for those dimensions until a reindex; `vocabulary` (indexContract/text/vocabulary.ts): an
 *    older index gets no "did you mean" until a reindex.
 * 4: the red flags (indexContract/flags.ts): `flags`, `flags_undecidable`, `flag_count` on each document and the
 *    peer fences in _meta (`flag_fences`), from which the API derives the detail's evidence; content hashes of
 *    definition 2 (the flags are served). An older index serves no flag until a reindex.
 * 5: the parties (indexContract/parties.ts): `party_ids` on each document and the parties' index of the generation
 *    behind `<alias>-parties`. An older index serves no party (the `party` filter matches nothing) until a reindex.
 */
export const INDEX_CONTRACT_VERSION = 5;

/** The oldest API contract that serves an index of this version correctly. */
export const CONTRACT_COMPATIBLE_FROM = 1;

/** What a new generation's _meta records about the contract. */
export interface ContractMeta {
  contract_version: number;
  contract_compatible_from: number;
  release: string;
}

export function contractMeta(): ContractMeta {
  return {
    contract_version: INDEX_CONTRACT_VERSION,
    contract_compatible_from: CONTRACT_COMPATIBLE_FROM,
    release: RELEASE,
  };
}

/** The mapping's top-level fields with a type (the ones queries and sorts read), from mappings/ppas.json. */
export function contractFields(): string[] {
  const properties = readIndexDefinition().mappings.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => typeof (property as { type?: unknown }).type === 'string')
    .map(([name]) => name);
}

/** What a field of the mapping gives `q` or the change log, for a detail that says what an older index lacks. */
const FIELD_GIVES: Readonly<Record<string, string>> = {
  technology_words: 'technology words in q',
  country_names: 'country names in q',
  name_without_first_letter: 'typos in the first letter',
  name_dropped_letter: 'a dropped letter',
  name_joined: 'joined words',
  name_compact: 'split words',
  name_canonical: 'numerals and abbreviations written the other way',
  name_prefixes: 'the word being typed',
  facet_values: 'facets counted together',
  group_developer: 'roll-ups by developer',
  group_offtaker: 'roll-ups by offtaker',
  group_offtaker_type: 'roll-ups by offtaker type',
  group_procuring_entity: 'roll-ups by procuring entity',
  group_procurement_method: 'roll-ups by procurement method',
  group_currency: 'roll-ups by currency',
  vocabulary: 'did you mean, for a q that found nothing',
  content_hash: 'stored content hashes (comparisons derive them meanwhile)',
  flags: 'red flags',
  flags_undecidable: "red flags' coverage",
  flag_count: 'sort=flags_desc',
};

/** What the API makes of the live index's contract (readiness, the metric, the log line at start). */
export interface ContractReading {
  status: 'ok' | 'reindex_recommended' | 'incompatible';
  /** null: built before versions were recorded (contract 1). */
  contractVersion: number | null;
  release: string | null;
  /** Fields of this release's mapping that the live index lacks (queries on them match nothing until a reindex). */
  missingFields: string[];
  detail: string | null;
}

/**
 * Judges a live index from its _meta and its mapping's field names: served fully (ok), served with what it holds but
 * a reindex would give more (an older contract, or fields missing), or not to be served by this API (a newer
 * contract that needs a newer API).
 */
export function judgeContract(
  meta: Partial<ContractMeta>,
  fields: readonly string[],
  expected: readonly string[] = contractFields(),
): ContractReading {
  const version = typeof meta.contract_version === 'number' ? meta.contract_version : null;
  const release = typeof meta.release === 'string' ? meta.release : null;
  const present = new Set(fields);
  const missingFields = expected.filter((field) => !present.has(field));
  const base = { contractVersion: version, release, missingFields };
  const builtBy = release ? `release ${release}` : 'a release before 0.2.0';
  const compatibleFrom =
    typeof meta.contract_compatible_from === 'number' ? meta.contract_compatible_from : 1;
  if (compatibleFrom > INDEX_CONTRACT_VERSION) {
    return {
      ...base,
      status: 'incompatible',
      detail:
        `the live index was built by ${builtBy} (index contract ${version}), which needs an API of contract ` +
        `${compatibleFrom} or later; this API (release ${RELEASE}) serves contract ${INDEX_CONTRACT_VERSION}: ` +
        'upgrade the API, or roll the index back',
    };
  }
  if (missingFields.length > 0 || version === null || version < INDEX_CONTRACT_VERSION) {
    const missing = missingFields.length
      ? `it lacks ${missingFields.map((field) => (FIELD_GIVES[field] ? `${field} (${FIELD_GIVES[field]})` : field)).join(', ')}`
      : 'its content hashes may be of an older definition, so comparisons derive them from the served fields';
    return {
      ...base,
      status: 'reindex_recommended',
      detail:
        `the live index was built by ${builtBy} (index contract ${version ?? 1}); this API serves contract ` +
        `${INDEX_CONTRACT_VERSION}. It is served as it is; run a reindex to get all of it: ${missing}`,
    };
  }
  if (version > INDEX_CONTRACT_VERSION) {
    return {
      ...base,
      status: 'ok',
      detail:
        `the live index was built by ${builtBy} (index contract ${version}), newer than this API's ` +
        `(${INDEX_CONTRACT_VERSION}) and compatible with it: served, without what this API does not know`,
    };
  }
  return { ...base, status: 'ok', detail: null };
}
