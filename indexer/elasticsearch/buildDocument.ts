// Record → indexed document: exactly the fields of mappings/ppas.json. Pure, so it is unit-tested without a server.
import {
  ATTACHMENT_KEYS,
  CONTRACT_KEYS,
  FISCAL_KEYS,
  OFFTAKER_KEYS,
  PROCUREMENT_KEYS,
  VERSION_KEYS,
  withKeys,
  type IndexDocument,
} from '../../indexContract/document.js';
import type {
  Contract,
  Fiscal,
  Offtaker,
  PpaAttachment,
  PpaRecord,
  Procurement,
  Version,
} from '../../indexContract/record.js';
import { foldText, nameSortKey } from '../../indexContract/text/fold.js';
import { canonicalUtc } from '../../indexContract/text/timestamp.js';
import { tokenPrefixes } from '../../indexContract/text/prefixes.js';
import { standardTokens } from '../../indexContract/text/tokenizer.js';
import {
  canonicalOfTokens,
  joinedPairsOf,
  technologyWords,
  writtenOfTokens,
} from '../../indexContract/text/canonical.js';
import { countryNameWords } from '../../indexContract/text/countryNames.js';
import {
  droppedLetterSpellingsOfTokens,
  withoutFirstLetterOfTokens,
} from '../../indexContract/text/typos.js';
import {
  COUNTRY_NAMES_FIELD,
  DEVELOPER_FOLDED_FIELD,
  LOCATION_FOLDED_FIELD,
  NAME_CANONICAL_FIELD,
  NAME_COMPACT_FIELD,
  NAME_DROPPED_LETTER_FIELD,
  NAME_FOLDED_FIELD,
  NAME_JOINED_FIELD,
  NAME_PREFIXES_FIELD,
  NAME_WITHOUT_FIRST_LETTER_FIELD,
  REFERENCE_CODE_FOLDED_FIELD,
  TECHNOLOGY_WORDS_FIELD,
  VOCABULARY_FIELD,
} from '../../indexContract/fields.js';
import { vocabularyWords } from '../../indexContract/text/vocabulary.js';
import { facetValues } from '../../indexContract/facetValues.js';
import { groupFieldValues } from '../../indexContract/groupFields.js';
import { PARTY_IDS_FIELD, partyIdsOfPpa } from '../../indexContract/parties.js';
import { contentHash } from '../../indexContract/contentHash.js';
import { evaluateFlags, peerLookup, type PeerLookup } from '../../indexContract/flags.js';

// The content hash's definition is the index contract's (versioned with it); re-exported for the indexer's callers.
export { contentHash };

/** ISO 8601 UTC with `Z`; milliseconds only when the source had them ("2024-03-01T12:00:00Z"). */
export function toUtcTimestamp(timestamp: string): string {
  const canonical = canonicalUtc(timestamp);
  if (canonical === null) throw new Error(`not a timestamp: ${JSON.stringify(timestamp)}`);
  return canonical;
}

/** No peer fences: no group decides `tariff_outlier` (a document built outside a reindex or a sync, in tests). */
export const NO_PEERS: PeerLookup = peerLookup(null);

/**
 * The document of a published record; `peers` are the fences of the index it goes into (a reindex's own, computed
 * over the set it indexes; sync's, read from the index it writes: indexer/elasticsearch/indexMeta.ts).
 */
export function buildDocument(record: PpaRecord, peers: PeerLookup = NO_PEERS): IndexDocument {
  const { slug, ...rest } = buildServedAndSearchFields(record, peers);
  return { slug, content_hash: contentHash({ slug, ...rest }), ...rest };
}

function buildServedAndSearchFields(
  record: PpaRecord,
  peers: PeerLookup,
): Omit<IndexDocument, 'content_hash'> {
  // The name is folded and cut into words once; every name form below is derived from these.
  const foldedName = foldText(record.project_name);
  const nameTokens = standardTokens(foldedName);
  const canonical = canonicalOfTokens(nameTokens);
  const canonicalName = canonical.join(' ');
  const flagged = evaluateFlags(record, peers);
  const faceted = {
    country_code: record.country_code ?? null,
    technology: record.technology,
    tariff: record.tariff,
    risk_features: record.risk_features ?? [],
    flags: flagged.flags,
    financial_close_year: record.financial_close_year ?? null,
  };
  const folded = {
    developer: foldText(record.developer),
    location: foldText(record.location),
    referenceCode: foldText(record.reference_code),
  };
  const technology = technologyWords(faceted.technology);
  const groups = groupFieldValues(record);
  const countries = countryNameWords(faceted.country_code);
  return {
    slug: record.slug,
    reference_code: record.reference_code,
    project_name: record.project_name,
    developer: record.developer,
    location: record.location,
    name_sort: nameSortKey(record.project_name),
    [NAME_FOLDED_FIELD]: foldedName,
    [NAME_CANONICAL_FIELD]: canonicalName,
    [NAME_COMPACT_FIELD]: canonical.join(''),
    [NAME_JOINED_FIELD]: joinedPairsOf(canonical, writtenOfTokens(nameTokens)),
    [NAME_DROPPED_LETTER_FIELD]: droppedLetterSpellingsOfTokens(nameTokens),
    [NAME_WITHOUT_FIRST_LETTER_FIELD]: withoutFirstLetterOfTokens(nameTokens),
    // The canonical words' prefixes too: "Kafue Photo" suggests "Kafue PV Park". (The canonical words are each
    // one standard token already, so they need no second cut.)
    [NAME_PREFIXES_FIELD]: tokenPrefixes([...nameTokens, ...canonical]),
    [DEVELOPER_FOLDED_FIELD]: folded.developer,
    [LOCATION_FOLDED_FIELD]: folded.location,
    [REFERENCE_CODE_FOLDED_FIELD]: folded.referenceCode,
    country_code: faceted.country_code,
    // What the PPA is, beside what it is called: "Tobel hydro", "Tobel Switzerland" find Tobel.
    [COUNTRY_NAMES_FIELD]: countries,
    technology: faceted.technology,
    [TECHNOLOGY_WORDS_FIELD]: technology,
    [VOCABULARY_FIELD]: vocabularyWords({
      nameTokens,
      canonicalName: canonical,
      texts: [folded.developer, folded.location, folded.referenceCode],
      descriptors: [...technology, ...countries],
    }),
    tariff: faceted.tariff,
    risk_features: faceted.risk_features,
    flags: flagged.flags,
    flags_undecidable: flagged.flags_undecidable,
    flag_count: flagged.flag_count,
    facet_values: facetValues(faceted),
    ...groups,
    [PARTY_IDS_FIELD]: partyIdsOfPpa(groups),
    capacity_mw: record.capacity_mw,
    financial_close_year: faceted.financial_close_year,
    active: record.active,
    published_at: record.published_at ? toUtcTimestamp(record.published_at) : null,
    updated_at: toUtcTimestamp(record.updated_at),
    // The schema lets a source omit nested keys; the index holds every key, null when unknown.
    fiscal: withKeys(FISCAL_KEYS, record.fiscal) as Fiscal,
    offtaker: withKeys(OFFTAKER_KEYS, record.offtaker) as Offtaker,
    contract: withKeys(CONTRACT_KEYS, record.contract) as Contract,
    procurement: withKeys(PROCUREMENT_KEYS, record.procurement) as Procurement,
    versions: (record.versions ?? []).map((version) => withKeys(VERSION_KEYS, version) as Version),
    documents: (record.documents ?? []).map(
      (attachment) => withKeys(ATTACHMENT_KEYS, attachment) as PpaAttachment,
    ),
  };
}
