// The explorer: a search box with suggestions, facets with counts, the result list with paging, a PPA's detail,
// the statistics as charts, and the matching PPAs grouped by a dimension (a roll-up: chart, table, CSV). It only
// calls the public API (same origin), and shows the URL of every call. The search (text, filters, order, page,
// grouping) lives in the page's own query string, with the API's parameter names: a link to it shows the same
// results, and Back and Forward walk the searches made.
import { $ } from './explore-dom.js';
import { pageQuery, readQuery, search, SEARCHED, state, STATE_CHANGED } from './explore-state.js';
import { refresh } from './explore-results.js';
import { chooseGroups, dimensionOptions, showGroupControls } from './explore-rollups.js';
import { closeSuggestions, wireSuggestions } from './explore-suggest.js';
import { wireParties } from './explore-party.js';

/** The form as the state says (after a link was opened, or Back or Forward). */
function formShowsState() {
  closeSuggestions();
  $('q').value = state.q;
  $('sort').value = state.sort;
  showGroupControls();
}

function start() {
  const input = $('q');
  wireSuggestions(input);
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    closeSuggestions();
    state.q = input.value.trim();
    state.page = 1;
    search();
  });
  $('sort').addEventListener('change', () => {
    state.sort = $('sort').value;
    state.page = 1;
    search();
  });
  $('prev').addEventListener('click', () => {
    state.page -= 1;
    search();
  });
  $('next').addEventListener('click', () => {
    state.page += 1;
    search();
  });
  $('clear-filters').addEventListener('click', () => {
    for (const values of Object.values(state.filters)) values.clear();
    state.developer = state.min_capacity = state.max_capacity = state.party = '';
    state.page = 1;
    search();
  });
  $('detail-close').addEventListener('click', () => {
    $('detail').hidden = true;
    $('results-heading').focus();
  });
  $('results-heading').tabIndex = -1;
  wireParties();
  $('group-by').append(...dimensionOptions().slice(1));
  for (const id of ['group-by', 'group-then', 'group-sort', 'group-limit']) {
    $(id).addEventListener('change', chooseGroups);
  }
  // Back and Forward: the search of that entry, in the form and in the results.
  window.addEventListener('popstate', () => {
    readQuery(location.search);
    formShowsState();
    refresh();
  });
  document.addEventListener(SEARCHED, refresh);
  document.addEventListener(STATE_CHANGED, formShowsState);
  // A link with a search in it opens on that search; what was left out of it is left out of the address too.
  readQuery(location.search);
  formShowsState();
  const query = pageQuery();
  if (`?${query}` !== location.search && (query || location.search)) {
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
  }
  refresh();
}

// Chart.js loads with `defer`, before this module runs (modules are deferred too, and run in document order).
start();
