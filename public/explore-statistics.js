// The statistics of a search as charts (Chart.js) and tables.
/* global Chart */
import { $, el, label } from './explore-dom.js';

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

export { charts, renderStatistics };
