// The search the page shows (text, filters, order, page, roll-up), and its one form: the page's own query string,
// with the API's parameter names, so that a link shows the same search and Back and Forward walk the searches made.
import {
  bounds,
  DESCRIPTION,
  DEFAULT_GROUP_LIMIT,
  DEFAULT_GROUP_SORT,
  FACET_DIMENSIONS,
  FACETS,
  GROUP_DIMENSIONS,
  MAX_GROUP_LIMIT,
  MAX_PAGE,
  SORTS,
  tokenPattern,
} from './explore-contract.js';

/** The events the page (explore.js) answers: a search made, the state changed under the form. */
const SEARCHED = 'explore:search';
const STATE_CHANGED = 'explore:state';

/** The list's filters the page keeps from a link without a control of its own (shown in #link-filters). */
const LINK_FILTERS = ['developer', 'min_capacity', 'max_capacity', 'party']; // not an API bound: parameters
/** A party id, or ! and one (the list's `party` filter): GET /api/v1/parties names them. */
const PARTY_ID = /^!?[a-z0-9]+(?:-[a-z0-9]+)*$/;

const state = {
  q: '',
  // By facet: any of the values (OR); one value of a numeric dimension (the year); every value where all must hold.
  filters: Object.fromEntries(FACETS.map((name) => [name, new Set()])),
  // Filters the page has no control for, kept when a link carries them (shown in #link-filters). `developer` here is
  // the list's substring filter, not the roll-up dimension of that name.
  developer: '', // not an API bound
  min_capacity: '',
  max_capacity: '',
  // The parties whose PPAs are listed (ids joined by ","), from a party's page or a link.
  party: '',
  // '' is the API's default: relevance with q, most recent first without.
  sort: '',
  page: 1,
  // The roll-up: no dimension (none), one, or two (a pivot: the pairs within each group of the first).
  groupBy: [],
  groupSort: DEFAULT_GROUP_SORT,
  groupLimit: DEFAULT_GROUP_LIMIT,
};

/** The filter and q parameters of the current state, as the list and the statistics take them. */
function filterParams() {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q.trim());
  for (const { facet, parameters, all } of FACET_DIMENSIONS) {
    const values = [...state.filters[facet]].sort();
    // Values that must all hold are repeated; alternatives are joined by ",".
    if (all) for (const value of values) params.append(parameters[0], value);
    else if (values.length) params.set(parameters[0], values.join(','));
  }
  for (const name of LINK_FILTERS) {
    if (state[name]) params.set(name, state[name]);
  }
  return params;
}

/** The roll-up's parameters, as the API names them; none without a dimension (the API refuses them alone). */
function groupParams() {
  const params = new URLSearchParams();
  if (state.groupBy.length === 0) return params;
  params.set('group_by', state.groupBy.join(','));
  if (state.groupSort !== DEFAULT_GROUP_SORT) params.set('group_sort', state.groupSort);
  if (state.groupLimit !== DEFAULT_GROUP_LIMIT) params.set('group_limit', String(state.groupLimit));
  return params;
}

/** The statistics request: the filters and q of the search, and the roll-up when one is chosen. */
function statisticsParams() {
  const params = filterParams();
  for (const [name, value] of groupParams()) params.set(name, value);
  return params;
}

/** The page's own query string: the filters and q, then the order, the page and the roll-up when not the default. */
function pageQuery() {
  const params = filterParams();
  if (state.sort) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  for (const [name, value] of groupParams()) params.set(name, value);
  // Commas and brackets are legal in a query; left as they are, a shared link stays readable.
  return params.toString().replaceAll('%2C', ',').replaceAll('%5B%5D', '[]');
}

/** Sets the state from a page query string. Unknown parameters and invalid values are left out. */
function readQuery(search) {
  const params = new URLSearchParams(search);
  const text = (name, max) => {
    const value = (params.get(name) ?? '').trim();
    return value.length <= max ? value : '';
  };
  const tokens = (schema, ...names) =>
    names
      .flatMap((name) => params.getAll(name))
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => tokenPattern(schema).test(value))
      .slice(0, bounds.maxListTokens);
  const number = (name, min, max) => {
    const value = (params.get(name) ?? '').trim();
    return /^\d+(\.\d+)?$/.test(value) && Number(value) >= min && Number(value) <= max ? value : '';
  };
  state.q = (params.get('q') ?? '').trim().slice(0, bounds.maxQLength);
  // The sets are refilled, not replaced: the facet boxes on screen hold them.
  for (const { facet, parameters, schema, numeric, countryCodes } of FACET_DIMENSIONS) {
    const one = numeric ? number(parameters[0], schema.minimum, schema.maximum) : '';
    const values = numeric ? (/^\d+$/.test(one) ? [one] : []) : tokens(schema, ...parameters);
    state.filters[facet].clear();
    // The index holds codes upper-cased and tokens lower-cased.
    for (const value of values) {
      state.filters[facet].add(countryCodes ? value.toUpperCase() : value.toLowerCase());
    }
  }
  state.developer = text('developer', bounds.maxDeveloperLength); // not an API bound: the substring filter
  state.min_capacity = number('min_capacity', 0, bounds.maxCapacityMw);
  state.max_capacity = number('max_capacity', 0, bounds.maxCapacityMw);
  state.party = (params.get('party') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => PARTY_ID.test(id))
    .slice(0, bounds.maxListTokens)
    .join(',');
  const sort = params.get('sort') ?? '';
  state.sort = SORTS.includes(sort) ? sort : ''; // relevance is the default with q, and an error without
  const page = params.get('page') ?? '';
  state.page = /^[1-9]\d*$/.test(page) && Number(page) <= MAX_PAGE ? Number(page) : 1;
  readGroupQuery(params);
}

/** The roll-up from a page query string: two known dimensions at most, different; order and size as the API takes. */
function readGroupQuery(params) {
  const dimensions = (params.get('group_by') ?? '').split(',').map((value) => value.trim());
  state.groupBy = [...new Set(dimensions)]
    .filter((value) => Object.hasOwn(GROUP_DIMENSIONS, value))
    .slice(0, DESCRIPTION.group.maxDimensions);
  const sort = params.get('group_sort') ?? '';
  const sorts = DESCRIPTION.group.sorts.map(({ name }) => name);
  state.groupSort = sorts.includes(sort) ? sort : DEFAULT_GROUP_SORT;
  const limit = params.get('group_limit') ?? '';
  state.groupLimit =
    /^[1-9]\d{0,2}$/.test(limit) && Number(limit) <= MAX_GROUP_LIMIT ? Number(limit) : DEFAULT_GROUP_LIMIT;
}
/** A new search, or another page of it: a history entry of its own, then its results. */
function search() {
  const query = pageQuery();
  const url = `${location.pathname}${query ? `?${query}` : ''}`;
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, '', url);
  // The page (explore.js) refreshes the results: an event, so that what runs a search need not import them.
  document.dispatchEvent(new window.Event(SEARCHED));
}

/** Asks the page to show the state in its form (explore.js listens), after the state changed from elsewhere. */
function showState() {
  document.dispatchEvent(new window.Event(STATE_CHANGED));
}

export {
  filterParams,
  pageQuery,
  readQuery,
  search,
  SEARCHED,
  showState,
  state,
  STATE_CHANGED,
  statisticsParams,
};
