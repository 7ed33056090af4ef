// A PPA's detail, as the API gives it.
import { API, flagTitle } from './explore-contract.js';
import { $, countryName, el, getJson, label, say, showUrl } from './explore-dom.js';
import { showPpaParties } from './explore-party.js';

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
      // Each red flag raised, with the sentence that says why (its evidence).
      ...(data.flag_evidence ?? []).map((evidence) => [
        `Red flag: ${flagTitle(evidence.code)}`,
        evidence.explanation,
      ]),
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
    // Its parties (developer members, offtaker, procuring entity), each a link to its page.
    await showPpaParties(`${url}/ocds`);
  } catch (error) {
    say(error.message);
  }
}

export { openDetail };
