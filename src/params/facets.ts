// `facets`: the breakdowns a list answer may carry in meta.facets (counted in the same search as the page).
import Type from 'typebox';
import { FACET_DIMENSIONS, FACET_NAMES, type FacetName } from '../../indexContract/dimensions.js';

// The facets are the dimension table's (indexContract/dimensions.ts).
export { FACET_NAMES, type FacetName };

/** At most this many buckets per facet. */
export const MAX_FACET_BUCKETS = 50;

/** The facets that leave their own filter out (or not), in words: "technology, tariff and year are". */
function wordList(disjunctive: boolean): string {
  const names = FACET_DIMENSIONS.filter(({ facet }) => facet.disjunctive === disjunctive).map(
    ({ facet }) => facet.name,
  );
  const words = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return disjunctive ? `${words} ${names.length > 1 ? 'are' : 'is'}` : words;
}

export const FACETS_PARAMETER = Type.Optional(
  Type.Array(Type.Unsafe<FacetName>({ type: 'string', enum: [...FACET_NAMES] }), {
    minItems: 1,
    maxItems: FACET_NAMES.length * 2,
    description:
      `Adds meta.facets with a count per value of each named breakdown, joined by "," (${FACET_NAMES.join(', ')}); ` +
      `at most ${MAX_FACET_BUCKETS} buckets each, count descending then value ascending (year: value descending). ` +
      `${wordList(true)} counted under every filter but their own (so a count is what ` +
      `choosing that value alone would give); ${wordList(false)} under all filters (so a count is what adding it would give).`,
  }),
);

export function toFacetNames(values: readonly string[]): FacetName[] {
  return FACET_NAMES.filter((name) => values.includes(name));
}
