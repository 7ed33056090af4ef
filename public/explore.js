// The explorer: a search box with suggestions, facets with counts, the result list with paging, a PPA's detail,
// the statistics as charts, and the matching PPAs grouped by a dimension (a roll-up: chart, table, CSV). It only
// calls the public API (same origin), and shows the URL of every call. The search (text, filters, order, page,
// grouping) lives in the page's own query string, with the API's parameter names: a link to it shows the same
// results, and Back and Forward walk the searches made.
/* global Chart */

const API = '/api/v1/ppas';
const PER_PAGE = 10;
const SUGGEST_DELAY_MS = 150;
const FEED = `${API}/feed`;

// What the page knows of the API (its dimensions, sorts and bounds) is described by the API itself, from its
// declarations (src/pages/explorerDescription.ts): nothing of the contract is copied here.
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

const state = {
  q: '',
  // By facet: any of the values (OR); one value of a numeric dimension (the year); every value where all must hold.
  filters: Object.fromEntries(FACETS.map((name) => [name, new Set()])),
  // Filters the page has no control for, kept when a link carries them (shown in #link-filters).
  developer: '',
  min_capacity: '',
  max_capacity: '',
  // '' is the API's default: relevance with q, most recent first without.
  sort: '',
  page: 1,
  // The roll-up: no dimension (none), one, or two (a pivot: the pairs within each group of the first).
  groupBy: [],
  groupSort: DEFAULT_GROUP_SORT,
  groupLimit: DEFAULT_GROUP_LIMIT,
};

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
};
const label = (value) => String(value).replaceAll('_', ' ');

// Country names, not codes (the API serves ISO 3166-1 alpha-2 codes): the browser's own CLDR names.
const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();
/** The English name of a country code ("ZM" → "Zambia"); the code itself when the browser has no name for it. */
function countryName(code) {
  if (!code) return code;
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A served value with the spans the API's `highlights` gives ([start, end) in UTF-16 code units, as slice takes
 * them) wrapped in <mark>: built from text nodes, never from HTML, so a value holding markup shows as text.
 */
function marked(value, spans) {
  const text = String(value ?? '');
  if (!Array.isArray(spans) || spans.length === 0) return [document.createTextNode(text)];
  const nodes = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (!(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= at &&
      end > start &&
      end <= text.length
    )) {
      continue; // a span the value cannot hold is left out rather than trusted
    }
    if (start > at) nodes.push(document.createTextNode(text.slice(at, start)));
    nodes.push(el('mark', {}, document.createTextNode(text.slice(start, end))));
    at = end;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/** A fact of a result, marked whole when the API says the match came through it (technology, country). */
const fact = (text, matched) => (matched ? el('mark', {}, document.createTextNode(text)) : text);

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
  for (const name of ['developer', 'min_capacity', 'max_capacity']) {
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
    const value = text(name, 20);
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
  state.developer = text('developer', bounds.maxDeveloperLength);
  state.min_capacity = number('min_capacity', 0, bounds.maxCapacityMw);
  state.max_capacity = number('max_capacity', 0, bounds.maxCapacityMw);
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
    .slice(0, 2);
  const sort = params.get('group_sort') ?? '';
  const sorts = [...$('group-sort').options].map((option) => option.value);
  state.groupSort = sorts.includes(sort) ? sort : DEFAULT_GROUP_SORT;
  const limit = params.get('group_limit') ?? '';
  state.groupLimit =
    /^[1-9]\d{0,2}$/.test(limit) && Number(limit) <= MAX_GROUP_LIMIT ? Number(limit) : DEFAULT_GROUP_LIMIT;
}

/** The form as the state says (after a link was opened, or Back or Forward). */
function showState() {
  closeSuggestions();
  $('q').value = state.q;
  $('sort').value = state.sort;
  showGroupControls();
}

/** A new search, or another page of it: a history entry of its own, then its results. */
function search() {
  const query = pageQuery();
  const url = `${location.pathname}${query ? `?${query}` : ''}`;
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, '', url);
  refresh();
}

function showUrl(id, url) {
  const link = $(id);
  link.href = url;
  link.querySelector('code').textContent = new URL(url, location.href).href;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const retry = response.headers.get('Retry-After');
    const detail = body?.detail ?? `HTTP ${response.status}`;
    throw new Error(response.status === 429 ? `Too many requests: try again in ${retry} s.` : detail);
  }
  return body;
}

function say(message) {
  $('message').textContent = message;
}

// ---- results and facets --------------------------------------------------------------------------------------

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
  else if (state.q.trim()) listParams.set('sort', 'relevance');
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
      return el('li', {}, open, el('span', { className: 'facts' }, ...factNodes));
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

// ---- detail --------------------------------------------------------------------------------------------------

async function openDetail(slug) {
  const url = `${API}/${encodeURIComponent(slug)}`;
  showUrl('detail-url', url);
  // The same PPA in the Open Contracting Data Standard: a record package (docs/ocds.md).
  $('detail-ocds').href = `${url}/ocds`;
  try {
    const { data } = await getJson(url);
    const rows = [
      ['Developer', data.developer],
      ['Reference code', data.reference_code],
      ['Location', data.location],
      ['Country', countryName(data.country_code)],
      ['Technology', label(data.technology)],
      ['Capacity', `${data.capacity_mw} MW`],
      ['Tariff', label(data.tariff)],
      ['Financial close', data.financial_close_year],
      ['Risk features', (data.risk_features ?? []).map(label).join(', ')],
      ['Offtaker', data.offtaker?.name],
      ['Signed', data.contract?.signed_date],
      ['Term', data.contract?.term_years ? `${data.contract.term_years} years` : null],
      ['Annual payment obligation (USD)', data.fiscal?.annual_payment_obligation_usd?.toLocaleString('en')],
      ['Guaranteed amount (USD)', data.fiscal?.guaranteed_amount_usd?.toLocaleString('en')],
      ['Procurement', label(data.procurement?.method ?? '')],
      ['Documents', (data.documents ?? []).map((document) => document.title).join('; ')],
      ['Still in force', data.active ? 'yes' : 'no'],
    ].filter(([, value]) => value !== null && value !== undefined && value !== '');
    $('detail-heading').textContent = data.project_name;
    $('detail-fields').replaceChildren(
      ...rows.flatMap(([name, value]) => [
        el('dt', { textContent: name }),
        el('dd', { textContent: String(value) }),
      ]),
    );
    $('detail').hidden = false;
    $('detail-heading').focus();
  } catch (error) {
    say(error.message);
  }
}

// ---- statistics ----------------------------------------------------------------------------------------------

const charts = {};

function chart(id, type, labels, values, datasetLabel) {
  const data = { labels, datasets: [{ label: datasetLabel, data: values, backgroundColor: '#1d4ed8' }] };
  if (type === 'doughnut') {
    data.datasets[0].backgroundColor = [
      '#1d4ed8',
      '#b45309',
      '#047857',
      '#7c3aed',
      '#be123c',
      '#0e7490',
      '#4d7c0f',
    ];
  }
  if (charts[id]) {
    charts[id].data = data;
    charts[id].update();
    return;
  }
  charts[id] = new Chart($(id), {
    type,
    data,
    options: { animation: false, responsive: true, plugins: { legend: { display: type === 'doughnut' } } },
  });
}

function table(caption, headers, rows) {
  return el(
    'table',
    {},
    el('caption', { textContent: caption }),
    el(
      'thead',
      {},
      el('tr', {}, ...headers.map((header) => el('th', { scope: 'col', textContent: header }))),
    ),
    el(
      'tbody',
      {},
      ...rows.map((row) =>
        el(
          'tr',
          {},
          ...row.map((cell, index) =>
            el('td', { textContent: String(cell), className: index > 0 ? 'number' : '' }),
          ),
        ),
      ),
    ),
  );
}

function renderStatistics(data) {
  const technology = data.capacity_by_technology;
  const years = data.capacity_by_year;
  const tariffs = data.tariff_mix;
  const fiscal = data.fiscal_exposure.by_risk_feature;
  const yearLabel = (year) => (year === null ? 'unknown' : String(year));
  chart(
    'chart-technology',
    'bar',
    technology.map((row) => label(row.technology)),
    technology.map((row) => row.capacity_mw),
    'MW',
  );
  chart(
    'chart-year',
    'bar',
    years.map((row) => yearLabel(row.year)),
    years.map((row) => row.capacity_mw),
    'MW',
  );
  chart(
    'chart-tariff',
    'doughnut',
    tariffs.map((row) => label(row.tariff)),
    tariffs.map((row) => row.ppas),
    'PPAs',
  );
  chart(
    'chart-fiscal',
    'bar',
    fiscal.map((row) => label(row.risk_feature)),
    fiscal.map((row) => row.capacity_mw),
    'MW',
  );
  $('stats-tables').replaceChildren(
    table(
      `Totals: ${data.totals.ppas} PPAs, ${data.totals.capacity_mw} MW`,
      ['Technology', 'PPAs', 'MW', 'Share'],
      technology.map((row) => [label(row.technology), row.ppas, row.capacity_mw, row.share]),
    ),
    table(
      'By financial close year',
      ['Year', 'PPAs', 'MW'],
      years.map((row) => [yearLabel(row.year), row.ppas, row.capacity_mw]),
    ),
    table(
      'Tariff mix',
      ['Tariff', 'PPAs', 'MW', 'Share of PPAs'],
      tariffs.map((row) => [label(row.tariff), row.ppas, row.capacity_mw, row.share]),
    ),
    table(
      'Fiscal exposure by risk feature',
      ['Risk feature', 'PPAs', 'MW'],
      fiscal.map((row) => [label(row.risk_feature), row.ppas, row.capacity_mw]),
    ),
  );
}

// ---- roll-ups ------------------------------------------------------------------------------------------------

/** A dimension's name inside a sentence. */
const dimensionWord = (dimension) => GROUP_DIMENSIONS[dimension].toLowerCase();

/** Options for a dimension menu: "Nothing", then every dimension but `except`. */
function dimensionOptions(except) {
  return [
    el('option', { value: '', textContent: 'Nothing' }),
    ...Object.entries(GROUP_DIMENSIONS)
      .filter(([value]) => value !== except)
      .map(([value, name]) => el('option', { value, textContent: name })),
  ];
}

/** The roll-up's controls as the state says; the second dimension offers every one but the first. */
function showGroupControls() {
  const [first = '', second = ''] = state.groupBy;
  $('group-by').value = first;
  $('group-then').replaceChildren(...dimensionOptions(first));
  $('group-then').value = second;
  $('group-sort').value = state.groupSort;
  const limit = String(state.groupLimit);
  // A size the menu lacks (from a link: the API takes 1 to 200) gets an option of its own.
  if (![...$('group-limit').options].some((option) => option.value === limit)) {
    $('group-limit').append(el('option', { value: limit, textContent: limit }));
  }
  $('group-limit').value = limit;
  for (const id of ['group-then', 'group-sort', 'group-limit']) $(id).disabled = !first;
}

/** The roll-up the controls show, as a new search (an entry in the history). */
function chooseGroups() {
  const first = $('group-by').value;
  const second = $('group-then').value;
  state.groupBy = first ? [first, ...(second && second !== first ? [second] : [])] : [];
  state.groupSort = $('group-sort').value;
  state.groupLimit = Number($('group-limit').value);
  showGroupControls();
  search();
}

/** What the chart shows of each group: the figure the groups are ordered by (capacity when by value). */
const GROUP_MEASURES = {
  capacity_desc: { figure: 'capacity_mw', name: 'Capacity (MW)' },
  key_asc: { figure: 'capacity_mw', name: 'Capacity (MW)' },
  ppas_desc: { figure: 'ppas', name: 'PPAs' },
  annual_payment_desc: { figure: 'annual_payment_obligation_usd', name: 'Annual payment obligation (USD)' },
  guaranteed_desc: { figure: 'guaranteed_amount_usd', name: 'Guaranteed amount (USD)' },
};
/** A pivot's chart stacks this many of the second dimension's values, the rest as one "other" part. */
const STACKED_VALUES = 6;
const CHART_LABEL_LENGTH = 40;
const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f'];

/** A group's key as shown: names as the API spells them, codes as words, countries by name. */
function groupKeyText(dimension, key) {
  if (key === null) return '(not given)';
  if (groupDimension(dimension).countryCodes) return countryName(String(key));
  if (groupDimension(dimension).tokens) return label(key);
  return String(key);
}

const number = (value) => value.toLocaleString('en');
/** A group's figures as the table's cells show them, in the table's column order. */
const figureTexts = (group) => [
  number(group.ppas),
  number(group.capacity_mw),
  `${(group.share_of_capacity * 100).toFixed(2)} %`,
  number(group.annual_payment_obligation_usd),
  number(group.guaranteed_amount_usd),
  number(group.ppas_with_disclosed_amounts),
];
const GROUP_COLUMNS = [
  'PPAs',
  'Capacity (MW)',
  'Share of capacity',
  'Annual payment obligation (USD)',
  'Guaranteed amount (USD)',
  'PPAs with disclosed amounts',
];

/** One row: its key as a header cell (text, never HTML), then its figures. */
function groupRow(keyText, group, { scope = 'row', className = '' } = {}) {
  return el(
    'tr',
    { className },
    el('th', { scope, textContent: keyText }),
    ...figureTexts(group).map((text) => el('td', { className: 'number', textContent: text })),
  );
}

const otherText = (other) => `Other ${number(other.groups)} group${other.groups === 1 ? '' : 's'}`;

/** The groups as a table: one row a group; a pivot's pairs as rows under their group, each group a row group. */
function groupsTable(data, [first, second]) {
  const meta = data.groups_meta;
  const headers = [
    second ? `${GROUP_DIMENSIONS[first]}, then ${dimensionWord(second)}` : GROUP_DIMENSIONS[first],
    ...GROUP_COLUMNS,
  ];
  const head = el(
    'thead',
    {},
    el('tr', {}, ...headers.map((text) => el('th', { scope: 'col', textContent: text }))),
  );
  const bodies = second
    ? data.groups.map((outer) =>
        el(
          'tbody',
          { className: 'pivot' },
          groupRow(groupKeyText(first, outer.key), outer, { scope: 'rowgroup', className: 'outer' }),
          ...outer.groups.map((inner) =>
            groupRow(groupKeyText(second, inner.key), inner, { className: 'inner' }),
          ),
          ...(outer.groups_meta.other.groups > 0
            ? [groupRow(otherText(outer.groups_meta.other), outer.groups_meta.other, { className: 'inner' })]
            : []),
        ),
      )
    : [el('tbody', {}, ...data.groups.map((group) => groupRow(groupKeyText(first, group.key), group)))];
  const foot = meta.other.groups > 0 ? [el('tfoot', {}, groupRow(otherText(meta.other), meta.other))] : [];
  const caption = `${GROUP_DIMENSIONS[first]}${second ? ` and ${dimensionWord(second)}` : ''}: the groups shown`;
  return el('table', {}, el('caption', { textContent: caption }), head, ...bodies, ...foot);
}

const chartLabel = (text) =>
  text.length > CHART_LABEL_LENGTH ? `${text.slice(0, CHART_LABEL_LENGTH - 1)}…` : text;

/** The chart's bars: one a group; a pivot's stacked by the second dimension's largest values and the rest. */
function groupDatasets(groups, [, second], measure) {
  if (!second) {
    return [
      {
        label: measure.name,
        data: groups.map((group) => group[measure.figure]),
        backgroundColor: PALETTE[0],
      },
    ];
  }
  const totals = new Map();
  for (const outer of groups) {
    for (const inner of outer.groups) {
      const text = groupKeyText(second, inner.key);
      totals.set(text, (totals.get(text) ?? 0) + inner[measure.figure]);
    }
  }
  const stacked = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, STACKED_VALUES)
    .map(([text]) => text);
  const valueIn = (outer, text) =>
    outer.groups.find((inner) => groupKeyText(second, inner.key) === text)?.[measure.figure] ?? 0;
  const datasets = stacked.map((text, index) => ({
    label: chartLabel(text),
    data: groups.map((outer) => valueIn(outer, text)),
    backgroundColor: PALETTE[index % PALETTE.length],
  }));
  // The rest of each group (values not stacked, and those past group_limit), never below 0: a PPA with several
  // risk features counts in each of them, so the parts can add up to more than their group.
  const rest = groups.map((outer) =>
    Math.max(0, outer[measure.figure] - stacked.reduce((sum, text) => sum + valueIn(outer, text), 0)),
  );
  if (rest.some((value) => value > 0))
    datasets.push({ label: 'other', data: rest, backgroundColor: '#9ca3af' });
  return datasets;
}

/** The groups as horizontal bars (names are long), one bar a group, as tall as they need. */
function groupsChart(data, groups) {
  const measure = GROUP_MEASURES[groups.sort] ?? GROUP_MEASURES[DEFAULT_GROUP_SORT];
  const [first, second] = groups.by;
  const labels = data.groups.map((group) => chartLabel(groupKeyText(first, group.key)));
  const description = `${measure.name} by ${dimensionWord(first)}${second ? `, in parts by ${dimensionWord(second)}` : ''}`;
  $('groups-caption').textContent = description;
  $('chart-groups').setAttribute('aria-label', `${description}; the same numbers are in the table below`);
  $('groups-chart-box').style.height = `${Math.max(8, 1.6 * labels.length + (second ? 4 : 2))}rem`;
  // Made again each time: a pivot's chart and a plain one differ in their options, not only their data.
  charts.groups?.destroy();
  charts.groups = new Chart($('chart-groups'), {
    type: 'bar',
    data: { labels, datasets: groupDatasets(data.groups, groups.by, measure) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: 'y',
      scales: { x: { stacked: Boolean(second) }, y: { stacked: Boolean(second) } },
      plugins: { legend: { display: Boolean(second) } },
    },
  });
}

/** The roll-up of a statistics answer: a summary line, the chart and the table; hidden without group_by. */
function renderGroups(data, groups) {
  $('groups-view').hidden = !data.groups;
  if (!data.groups) return;
  const meta = data.groups_meta;
  const shown = data.groups.length;
  $('groups-summary').textContent =
    meta.total_groups === 0
      ? 'No group: no PPA matches.'
      : `${number(meta.total_groups)} group${meta.total_groups === 1 ? '' : 's'} in all; ` +
        (shown < meta.total_groups ? `the first ${shown} shown.` : 'all shown.');
  groupsChart(data, groups);
  $('groups-table').replaceChildren(groupsTable(data, groups.by));
}

// ---- suggestions ---------------------------------------------------------------------------------------------

let suggestTimer;
let suggestRequest = 0;
let active = -1;

function closeSuggestions() {
  // A suggestion still on its way is dropped too: it must not open the list after a search ran.
  clearTimeout(suggestTimer);
  suggestRequest++;
  $('suggestions').hidden = true;
  $('suggestions').replaceChildren();
  $('q').setAttribute('aria-expanded', 'false');
  $('q').removeAttribute('aria-activedescendant');
  active = -1;
}

function highlight(index) {
  const options = [...$('suggestions').children];
  if (!options.length) return;
  active = (index + options.length) % options.length;
  options.forEach((option, i) => option.setAttribute('aria-selected', String(i === active)));
  $('q').setAttribute('aria-activedescendant', options[active].id);
}

async function suggest(text) {
  const request = ++suggestRequest;
  const url = `${API}/suggest?${new URLSearchParams({ q: text, limit: '8', highlight: 'true' })}`;
  showUrl('suggest-url', url);
  try {
    const { data } = await getJson(url);
    if (request !== suggestRequest) return; // a later keystroke already asked again
    const options = data.map((item, index) => {
      const option = el(
        'li',
        { id: `suggestion-${index}`, role: 'option' },
        ...marked(item.project_name, item.highlights?.project_name),
        el('span', {
          className: 'meta',
          textContent: [label(item.technology), countryName(item.country_code)].filter(Boolean).join(' · '),
        }),
      );
      option.setAttribute('aria-selected', 'false');
      option.dataset.slug = item.slug;
      option.addEventListener('mousedown', (event) => event.preventDefault());
      option.addEventListener('click', () => choose(option));
      return option;
    });
    $('suggestions').replaceChildren(...options);
    $('suggestions').hidden = options.length === 0;
    $('q').setAttribute('aria-expanded', String(options.length > 0));
    active = -1;
  } catch (error) {
    say(error.message);
  }
}

function choose(option) {
  closeSuggestions();
  openDetail(option.dataset.slug);
}

// ---- wiring --------------------------------------------------------------------------------------------------

function start() {
  const input = $('q');
  input.addEventListener('input', () => {
    clearTimeout(suggestTimer);
    const text = input.value.trim();
    if (!text) return closeSuggestions();
    suggestTimer = setTimeout(() => suggest(text), SUGGEST_DELAY_MS);
  });
  input.addEventListener('keydown', (event) => {
    const open = !$('suggestions').hidden;
    if (event.key === 'ArrowDown' && open) {
      event.preventDefault();
      highlight(active + 1);
    } else if (event.key === 'ArrowUp' && open) {
      event.preventDefault();
      highlight(active - 1);
    } else if (event.key === 'Enter' && open && active >= 0) {
      event.preventDefault();
      choose($('suggestions').children[active]);
    } else if (event.key === 'Escape') {
      closeSuggestions();
    }
  });
  input.addEventListener('blur', () => setTimeout(closeSuggestions, 100));
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
    state.developer = state.min_capacity = state.max_capacity = '';
    state.page = 1;
    search();
  });
  $('detail-close').addEventListener('click', () => {
    $('detail').hidden = true;
    $('results-heading').focus();
  });
  $('results-heading').tabIndex = -1;
  $('group-by').append(...dimensionOptions().slice(1));
  for (const id of ['group-by', 'group-then', 'group-sort', 'group-limit']) {
    $(id).addEventListener('change', chooseGroups);
  }
  // Back and Forward: the search of that entry, in the form and in the results.
  window.addEventListener('popstate', () => {
    readQuery(location.search);
    showState();
    refresh();
  });
  // A link with a search in it opens on that search; what was left out of it is left out of the address too.
  readQuery(location.search);
  showState();
  const query = pageQuery();
  if (`?${query}` !== location.search && (query || location.search)) {
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
  }
  refresh();
}

// Chart.js loads with `defer`, before this module runs (modules are deferred too, and run in document order).
start();
