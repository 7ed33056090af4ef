// What the explorer knows of the API: its address, and its dimensions, sorts and bounds as the API describes them
// from its own declarations (src/pages/explorerDescription.ts, served as explorer.json): nothing of the contract
// is copied into the page's scripts (test/unit/public/noCopiedContract.test.ts fails on a copy).
const API = '/api/v1/ppas';
const PER_PAGE = 10;
const FEED = `${API}/feed`;

const DESCRIPTION = await fetch(document.querySelector('meta[name="explorer-description"]').content).then(
  (response) => response.json(),
);
const { bounds } = DESCRIPTION;
/** The dimensions the list counts (its facets), in the API's order. */
const FACET_DIMENSIONS = DESCRIPTION.dimensions.filter((dimension) => dimension.facet);
const FACETS = FACET_DIMENSIONS.map((dimension) => dimension.facet);
const facetDimension = (name) => FACET_DIMENSIONS.find((dimension) => dimension.facet === name);
const FACET_LABELS = Object.fromEntries(
  FACET_DIMENSIONS.map(({ facet, label, several, all }) => [
    facet,
    `${label}${several ? 's' : ''}${all ? ' (all selected must hold)' : ''}`,
  ]),
);
// The API's bounds, so that a hand-edited or stale link loses its invalid parts instead of the whole search.
const tokenPattern = (schema) =>
  new RegExp(schema.pattern.replace('+$', `{1,${bounds.maxTokenLength}}$`), 'i');
const SORTS = DESCRIPTION.sorts;
/** A red flag's short label, by its code (the API's own titles). */
const FLAG_TITLES = Object.fromEntries(DESCRIPTION.flags.map(({ code, title }) => [code, title]));
const flagTitle = (code) => FLAG_TITLES[code] ?? code;
const MAX_PAGE = bounds.resultWindow / PER_PAGE; // page × per_page may not exceed the index's result window
// The roll-up's dimensions (the API's group_by values) as the controls and the table name them, in menu order.
const GROUP_DIMENSIONS = Object.fromEntries(
  DESCRIPTION.dimensions.map((dimension) => [dimension.group, dimension.label]),
);
const groupDimension = (name) => DESCRIPTION.dimensions.find((dimension) => dimension.group === name);
// The API's defaults and bound, left out of the addresses when chosen.
const DEFAULT_GROUP_SORT = DESCRIPTION.group.defaultSort;
const DEFAULT_GROUP_LIMIT = DESCRIPTION.group.defaultLimit;
const MAX_GROUP_LIMIT = DESCRIPTION.group.maxLimit;

export {
  API,
  bounds,
  DESCRIPTION,
  DEFAULT_GROUP_LIMIT,
  DEFAULT_GROUP_SORT,
  FACET_DIMENSIONS,
  FACET_LABELS,
  facetDimension,
  FACETS,
  FEED,
  flagTitle,
  GROUP_DIMENSIONS,
  groupDimension,
  MAX_GROUP_LIMIT,
  MAX_PAGE,
  PER_PAGE,
  SORTS,
  tokenPattern,
};
