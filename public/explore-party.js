// Parties: a party's page (its figures, spellings, partners and a link to its PPAs through the list) and a search of
// the parties by name, from GET /api/v1/parties and /api/v1/parties/{id}.
import { $, countryName, el, getJson, label, say, showUrl } from './explore-dom.js';

const PARTIES = '/api/v1/parties';

/** A button that opens a party's page. */
function partyButton(id, text) {
  const button = el('button', { type: 'button', className: 'linklike', textContent: text });
  button.dataset.party = id;
  button.addEventListener('click', () => openParty(id));
  return button;
}

async function openParty(id) {
  const url = `${PARTIES}/${encodeURIComponent(id)}`;
  showUrl('party-url', url);
  try {
    const { data } = await getJson(url);
    const roles = Object.entries(data.roles)
      .filter(([, ppas]) => ppas > 0)
      .map(([role, ppas]) => `${label(role)} of ${ppas}`);
    const rows = [
      ['PPAs', data.ppas],
      ['Roles', roles.join(', ')],
      ['Capacity', `${data.capacity_mw} MW`],
      ['Annual payment obligations (USD)', data.annual_payment_obligation_usd.toLocaleString('en')],
      ['Guaranteed amounts (USD)', data.guaranteed_amount_usd.toLocaleString('en')],
      ['Countries', data.countries.map(countryName).join(', ')],
      ['Financial close', data.years.first === null ? null : `${data.years.first}–${data.years.last}`],
    ].filter(([, value]) => value !== null && value !== '');
    $('party-heading').textContent = data.name;
    $('party-fields').replaceChildren(
      ...rows.flatMap(([name, value]) => [
        el('dt', { textContent: name }),
        el('dd', { textContent: String(value) }),
      ]),
    );
    $('party-aliases').replaceChildren(
      ...data.aliases.map((alias) => el('li', { textContent: `${alias.name} (${alias.ppas})` })),
    );
    $('party-partners').replaceChildren(
      ...data.partners.map((partner) =>
        el('li', {}, partyButton(partner.id, partner.name), ` (${partner.ppas} shared)`),
      ),
    );
    // Its PPAs: this page's own list with the party filter, so that facets, charts and exports follow.
    $('party-ppas').href = `${location.pathname}?party=${encodeURIComponent(data.id)}`;
    $('party').hidden = false;
    $('party-heading').focus();
  } catch (error) {
    say(error.message);
  }
}

async function findParties(text) {
  const url = `${PARTIES}?${new URLSearchParams(text ? { q: text } : {})}`;
  showUrl('parties-url', url);
  try {
    const { data, meta } = await getJson(url);
    $('parties-results').replaceChildren(
      ...data.map((party) =>
        el('li', {}, partyButton(party.id, party.name), ` · ${party.ppas} PPAs, ${party.capacity_mw} MW`),
      ),
    );
    if (meta.total === 0) say('No party has that name.');
  } catch (error) {
    say(error.message);
  }
}

/** The parties of a PPA, by the ids its OCDS record gives them, each opening its page. */
async function showPpaParties(ocdsUrl) {
  const list = $('detail-parties');
  list.replaceChildren();
  try {
    const body = await getJson(ocdsUrl);
    const parties = body.records?.[0]?.compiledRelease?.parties ?? [];
    list.replaceChildren(...parties.map((party) => el('li', {}, partyButton(party.id, party.name))));
  } catch (error) {
    say(error.message);
  }
}

function wireParties() {
  $('parties-form').addEventListener('submit', (event) => {
    event.preventDefault();
    findParties($('parties-q').value.trim());
  });
  $('party-close').addEventListener('click', () => {
    $('party').hidden = true;
  });
}

export { openParty, showPpaParties, wireParties };
