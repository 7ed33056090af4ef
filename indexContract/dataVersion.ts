// The data version of a live index: a count in the index's _meta that every writer in place (sync: writes,
// deletes, reconciles) moves on once its changes are searchable. A reindex makes a new index instead, so what an
// answer was computed from is named by the pair (concrete index, data version): the API's response cache keys its
// answers by that pair and drops them when either moves (docs/architecture.md, "Guarantees across layers").

/** The _meta field that holds it (absent: 0, nothing written in place yet). */
export const DATA_VERSION_FIELD = 'data_version';

/** The generation an answer was computed from, as one string: `<index>@<data version>`. */
export function generationName(index: string, dataVersion: number): string {
  return `${index}@${dataVersion}`;
}

/** The concrete index of a generation's name (generationName): what a reindex moves, not a sync. */
export function generationIndex(generation: string): string {
  const at = generation.lastIndexOf('@');
  return at === -1 ? generation : generation.slice(0, at);
}
