// The orders a list can be walked in: a leaf, so the list's parameters and the cursor that resumes a walk can both
// name them without importing each other.
export const SORT_ORDERS = [
  'name_asc',
  'name_desc',
  'capacity_asc',
  'capacity_desc',
  'recent',
  'oldest',
  'flags_desc',
  'relevance',
] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
