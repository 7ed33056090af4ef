// The explorer: a search box with suggestions, facets with counts, the result list with paging, a PPA's detail,
// and the statistics as charts. It only calls the public API (same origin), and shows the URL of every call.
/* global Chart */

const API = '/api/v1/ppas';
const PER_PAGE = 10;
const FACETS = ['technology', 'tariff', 'country', 'year', 'risk_features'];
const FACET_LABELS = {
  technology: 'Technology',
  tariff: 'Tariff',
  country: 'Country',
  year: 'Financial close year',
  risk_features: 'Risk features (all selected must hold)',
};
const SUGGEST_DELAY_MS = 150;

const state = {
  q: '',
  // technology, tariff, country: any of the values (OR); year: one value; risk_features: every value (AND).
  filters: {
    technology: new Set(),
    tariff: new Set(),
    country: new Set(),
    year: new Set(),
    risk_features: new Set(),
  },
  page: 1,
};

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
};
const label = (value) => String(value).replaceAll('_', ' ');

/** The filter and q parameters of the current state, as the list and the statistics take them. */
function filterParams() {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q.trim());
  for (const name of ['technology', 'tariff', 'country']) {
    if (state.filters[name].size) params.set(name, [...state.filters[name]].sort().join(','));
  }
  for (const year of state.filters.year) params.set('year', year);
  for (const feature of [...state.filters.risk_features].sort()) params.append('risk_features[]', feature);
  return params;
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

async function refresh() {
  say('');
  const params = filterParams();
  const listParams = new URLSearchParams(params);
  listParams.set('facets', FACETS.join(','));
  listParams.set('per_page', String(PER_PAGE));
  listParams.set('page', String(state.page));
  if (state.q.trim()) listParams.set('sort', 'relevance');
  const listUrl = `${API}?${listParams}`;
  const statsUrl = `${API}/statistics${params.size ? `?${params}` : ''}`;
  showUrl('list-url', listUrl);
  showUrl('stats-url', statsUrl);
  for (const format of ['csv', 'ndjson']) {
    const exportParams = new URLSearchParams(params);
    exportParams.set('format', format);
    $(`export-${format}`).href = `${API}/export?${exportParams}`;
  }
  try {
    const [list, statistics] = await Promise.all([getJson(listUrl), getJson(statsUrl)]);
    renderResults(list);
    renderFacets(list.meta.facets ?? {});
    renderStatistics(statistics.data);
  } catch (error) {
    say(error.message);
  }
}

function renderResults({ data, meta }) {
  const total = meta.total;
  $('results-summary').textContent =
    total === 0
      ? 'No PPA matches.'
      : `${total} PPA${total === 1 ? '' : 's'} match; page ${meta.page} of ${meta.total_pages}.`;
  $('results').replaceChildren(
    ...data.map((item) => {
      const open = el('button', {
        type: 'button',
        className: 'linklike name',
        textContent: item.project_name,
      });
      open.dataset.slug = item.slug;
      open.addEventListener('click', () => openDetail(item.slug));
      const facts = [
        label(item.technology),
        `${item.capacity_mw} MW`,
        item.country_code,
        item.financial_close_year,
        item.developer,
      ].filter((fact) => fact !== null && fact !== undefined && fact !== '');
      return el('li', {}, open, el('span', { className: 'facts', textContent: facts.join(' · ') }));
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
    const single = name === 'year';
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
        refresh();
      });
      return el('label', {}, input, `${label(value)} (${bucket.count})`);
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
  try {
    const { data } = await getJson(url);
    const rows = [
      ['Developer', data.developer],
      ['Reference code', data.reference_code],
      ['Location', data.location],
      ['Country', data.country_code],
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

// ---- suggestions ---------------------------------------------------------------------------------------------

let suggestTimer;
let suggestRequest = 0;
let active = -1;

function closeSuggestions() {
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
  const url = `${API}/suggest?${new URLSearchParams({ q: text, limit: '8' })}`;
  showUrl('suggest-url', url);
  try {
    const { data } = await getJson(url);
    if (request !== suggestRequest) return; // a later keystroke already asked again
    const options = data.map((item, index) => {
      const option = el(
        'li',
        { id: `suggestion-${index}`, role: 'option' },
        item.project_name,
        el('span', {
          className: 'meta',
          textContent: [label(item.technology), item.country_code].filter(Boolean).join(' · '),
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
    state.q = input.value;
    state.page = 1;
    refresh();
  });
  $('prev').addEventListener('click', () => {
    state.page -= 1;
    refresh();
  });
  $('next').addEventListener('click', () => {
    state.page += 1;
    refresh();
  });
  $('clear-filters').addEventListener('click', () => {
    for (const values of Object.values(state.filters)) values.clear();
    state.page = 1;
    refresh();
  });
  $('detail-close').addEventListener('click', () => {
    $('detail').hidden = true;
    $('results-heading').focus();
  });
  $('results-heading').tabIndex = -1;
  refresh();
}

// Chart.js loads with `defer`, before this module runs (modules are deferred too, and run in document order).
start();
