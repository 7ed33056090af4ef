// The results of a search: the list and its facets (and, from the same refresh, the statistics and the roll-up).
import {
  API,
  DESCRIPTION,
  FACET_LABELS,
  facetDimension,
  flagTitle,
  FACETS,
  FEED,
  PER_PAGE,
} from './explore-contract.js';
import { $, countryName, el, fact, getJson, label, marked, say, showUrl } from './explore-dom.js';
import { filterParams, search, showState, state, statisticsParams } from './explore-state.js';
import { openDetail } from './explore-detail.js';
import { renderStatistics } from './explore-statistics.js';
import { renderGroups } from './explore-rollups.js';

let refreshRequest = 0;
let shownFacets = {};

async function refresh() {
  const request = ++refreshRequest;
  say('');
  const params = filterParams();
  const listParams = new URLSearchParams(params);
  listParams.set('facets', FACETS.join(','));
  listParams.set('per_page', String(PER_PAGE));
  listParams.set('page', String(state.page));
  if (state.sort) listParams.set('sort', state.sort);
  else if (state.q.trim()) listParams.set('sort', DESCRIPTION.textSort);
  // Why each result matched q: the words marked in the results.
  if (state.q.trim()) listParams.set('highlight', 'true');
  const listUrl = `${API}?${listParams}`;
  const statsParams = statisticsParams();
  const statsUrl = `${API}/statistics${statsParams.size ? `?${statsParams}` : ''}`;
  showUrl('list-url', listUrl);
  showUrl('stats-url', statsUrl);
  // The roll-up this request asks for, as its answer is to be shown (the state may change before it comes).
  const groups = { by: [...state.groupBy], sort: state.groupSort };
  if (groups.by.length) {
    const csvParams = new URLSearchParams(statsParams);
    csvParams.set('format', 'csv');
    $('groups-csv').href = `${API}/statistics?${csvParams}`;
  }
  for (const format of ['csv', 'ndjson']) {
    const exportParams = new URLSearchParams(params);
    exportParams.set('format', format);
    $(`export-${format}`).href = `${API}/export?${exportParams}`;
  }
  // The feed takes exactly the filters and q: no page, order or page size.
  const feedUrl = `${FEED}${params.size ? `?${params}` : ''}`;
  $('follow').href = feedUrl;
  $('feed-link').href = feedUrl;
  renderLinkFilters();
  $('results-section').setAttribute('aria-busy', 'true');
  try {
    const [list, statistics] = await Promise.allSettled([getJson(listUrl), getJson(statsUrl)]);
    if (request !== refreshRequest) return; // Back, Forward or another search came after this one
    // Each answer on its own: a roll-up the API refuses (too many groups) leaves the results standing.
    const failures = [list, statistics].filter((answer) => answer.status === 'rejected');
    say([...new Set(failures.map((answer) => answer.reason.message))].join(' '));
    if (list.status === 'fulfilled') {
      renderResults(list.value);
      shownFacets = list.value.meta.facets ?? {};
    } else {
      // Results of another search must not stand under this one; the facets stay, to undo a filter with.
      $('results').replaceChildren();
      $('results-summary').textContent = '';
      $('page-info').textContent = '';
      $('prev').disabled = state.page <= 1;
      $('next').disabled = true;
    }
    renderFacets(shownFacets);
    if (statistics.status === 'fulfilled') {
      renderStatistics(statistics.value.data);
      renderGroups(statistics.value.data, groups);
    } else {
      $('groups-view').hidden = true;
    }
  } finally {
    if (request === refreshRequest) $('results-section').removeAttribute('aria-busy');
  }
}

/** The filters a link brought that have no control here, so that they are seen (Clear all filters ends them). */
function renderLinkFilters() {
  const parts = [];
  if (state.developer) parts.push(`developer contains “${state.developer}”`);
  if (state.min_capacity) parts.push(`at least ${state.min_capacity} MW`);
  if (state.max_capacity) parts.push(`at most ${state.max_capacity} MW`);
  if (state.party) parts.push(`the PPAs of party ${state.party.split(',').join(' or ')}`);
  $('link-filters').textContent = parts.length ? `Also from the link: ${parts.join('; ')}.` : '';
  $('link-filters').hidden = parts.length === 0;
}

/**
 * "Did you mean …?": the rewrite of q the API offers when q found nothing (meta.did_you_mean), as a link that runs
 * that search here; its text is a text node, never HTML.
 */
function didYouMean(offer) {
  const params = new URLSearchParams(location.search);
  params.set('q', offer.q);
  params.delete('page');
  const link = el('a', { href: `${location.pathname}?${params}` }, offer.q);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    state.q = offer.q;
    state.page = 1;
    showState();
    search();
  });
  return [' Did you mean ', link, '?'];
}

function renderResults({ data, meta }) {
  const total = meta.total;
  $('results-summary').replaceChildren(
    total === 0
      ? 'No PPA matches.'
      : `${total} PPA${total === 1 ? '' : 's'} match; page ${meta.page} of ${meta.total_pages}.`,
    ...(total === 0 && meta.did_you_mean ? didYouMean(meta.did_you_mean) : []),
  );
  $('results').replaceChildren(
    ...data.map((item) => {
      const highlights = item.highlights ?? {};
      const open = el(
        'button',
        { type: 'button', className: 'linklike name' },
        ...marked(item.project_name, highlights.project_name),
      );
      open.dataset.slug = item.slug;
      open.addEventListener('click', () => openDetail(item.slug));
      const facts = [
        fact(label(item.technology), highlights.technology),
        `${item.capacity_mw} MW`,
        item.country_code ? fact(countryName(item.country_code), highlights.country_code) : null,
        item.financial_close_year === null ? null : String(item.financial_close_year),
        item.developer ? marked(item.developer, highlights.developer) : null,
        item.location && highlights.location ? marked(item.location, highlights.location) : null,
      ].filter((part) => part !== null && part !== undefined && part !== '');
      const factNodes = facts.flatMap((part, index) => [...(index > 0 ? [' · '] : []), ...[part].flat()]);
      // The red flags it raises, as short labels (a question to ask, not a finding).
      const flagLabels = (item.flags ?? []).map((code) =>
        el('span', { className: 'flag-label' }, flagTitle(code)),
      );
      return el(
        'li',
        {},
        open,
        el('span', { className: 'facts' }, ...factNodes),
        ...(flagLabels.length ? [el('span', { className: 'flag-labels' }, ...flagLabels)] : []),
      );
    }),
  );
  $('page-info').textContent = total ? `Page ${meta.page} of ${meta.total_pages}` : '';
  $('prev').disabled = meta.page <= 1;
  $('next').disabled = meta.page >= meta.total_pages;
}

function renderFacets(facets) {
  const groups = FACETS.filter((name) => facets[name]).map((name) => {
    const selected = state.filters[name];
    const buckets = [...facets[name]];
    // A selected value keeps its box even when nothing matches it any more, so it can be unselected.
    for (const value of selected) {
      if (!buckets.some((bucket) => String(bucket.value) === value)) buckets.push({ value, count: 0 });
    }
    const single = facetDimension(name).numeric;
    const boxes = buckets.map((bucket) => {
      const value = String(bucket.value);
      const input = el('input', {
        type: 'checkbox',
        name: `facet-${name}`,
        value,
        checked: selected.has(value),
      });
      input.addEventListener('change', () => {
        if (single) selected.clear();
        if (input.checked) selected.add(value);
        else selected.delete(value);
        state.page = 1;
        search();
      });
      const shown = facetDimension(name).countryCodes ? countryName(value) : label(value);
      return el('label', {}, input, `${shown} (${bucket.count})`);
    });
    // Long lists (countries, years) scroll inside their group, so the results stay in view.
    const group = el('fieldset', { className: boxes.length > 10 ? 'long' : '' });
    group.append(el('legend', { textContent: FACET_LABELS[name] }), ...boxes);
    return group;
  });
  $('facet-groups').replaceChildren(...groups);
}

export { refresh };
