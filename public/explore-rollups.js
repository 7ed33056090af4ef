// The roll-up of a search (group_by): its controls, a bar chart and a table of the groups.
/* global Chart */
import { DESCRIPTION, GROUP_DIMENSIONS, groupDimension } from './explore-contract.js';
import { $, countryName, el, label } from './explore-dom.js';
import { search, state } from './explore-state.js';
import { charts } from './explore-statistics.js';

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
const FIGURE_NAMES = {
  capacity_mw: 'Capacity (MW)',
  ppas: 'PPAs',
  annual_payment_obligation_usd: 'Annual payment obligation (USD)',
  guaranteed_amount_usd: 'Guaranteed amount (USD)',
};
/** The figure a group_sort orders by, as the API describes it; capacity for an order by key. */
function measureOf(sort) {
  const figure = DESCRIPTION.group.sorts.find(({ name }) => name === sort)?.figure ?? 'capacity_mw';
  return { figure, name: FIGURE_NAMES[figure] };
}
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
  const measure = measureOf(groups.sort);
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

export { chooseGroups, dimensionOptions, renderGroups, showGroupControls };
