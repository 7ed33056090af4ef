import { expect } from 'chai';
import { reconciliationProblems } from '../../../../src/params/reconciliationSchemas.js';
import { PARTY_SERVICE, partyExtendValues, partyFacts } from '../../../../src/present/reconcileParties.js';
import { developedBy, inCountry, ofTechnology, PPA_SERVICE } from '../../../../src/present/reconcilePpas.js';
import {
  escapeHtml,
  presentExtension,
  presentManifest,
  presentProposedProperties,
  presentSuggestedProperties,
  presentSuggestedTypes,
  previewCard,
} from '../../../../src/present/reconcileService.js';
import type { ReconcilePartySource } from '../../../../src/queries/reconcilePartiesSearch.js';

const party: ReconcilePartySource = {
  id: 'acme-power-ltd-1a2b3c4d',
  name: 'Acme Power Ltd',
  aliases: [
    { name: 'Acme Power Ltd', ppas: 3 },
    { name: 'ACME POWER LTD', ppas: 1 },
  ],
  roles: { developer: 3, offtaker: 0, procuring_entity: 1 },
  role_names: ['developer', 'procuring_entity'],
  ppas: 4,
  capacity_mw: 120.04,
  guaranteed_amount_usd: 1000.6,
  countries: ['KE', 'CI'],
};

describe('present/reconcileService and the services’ own parts', () => {
  it('makes manifests the 0.2 schema accepts, with {{id}} in view and preview', () => {
    for (const service of [PPA_SERVICE, PARTY_SERVICE]) {
      const manifest = presentManifest(service, 'https://api.example.org');
      expect(reconciliationProblems('manifest', manifest), service.name).to.deep.equal([]);
      expect(manifest.view.url).to.include('{{id}}');
      expect(manifest.preview.url).to.equal(`https://api.example.org${service.paths.preview}?id={{id}}`);
    }
  });

  it('suggests properties and the type by prefix, a page from the cursor; proposes the extension columns', () => {
    const suggested = presentSuggestedProperties(PPA_SERVICE, { prefix: 'Co', cursor: 0, limit: 10 });
    expect(suggested.result.map((property) => property.id)).to.deep.equal(['reference_code', 'country']);
    expect(
      presentSuggestedProperties(PPA_SERVICE, { prefix: 'co', cursor: 1, limit: 10 }).result,
    ).to.have.length(1);
    expect(reconciliationProblems('suggestProperties', suggested)).to.deep.equal([]);
    expect(
      presentSuggestedTypes(PARTY_SERVICE, { prefix: 'par', cursor: 0, limit: 10 }).result,
    ).to.have.length(1);
    expect(
      presentSuggestedTypes(PARTY_SERVICE, { prefix: 'ppa', cursor: 0, limit: 10 }).result,
    ).to.deep.equal([]);
    const proposal = presentProposedProperties(PARTY_SERVICE, { type: 'party', limit: 2 });
    expect(proposal.properties.map((property) => property.id)).to.deep.equal(['ppas', 'capacity_mw']);
    expect(reconciliationProblems('propertyProposal', proposal)).to.deep.equal([]);
    expect(presentProposedProperties(PARTY_SERVICE, { type: 'ppa', limit: 5 }).properties).to.deep.equal([]);
  });

  it('agrees with a PPA’s country by code or English name, technology by code or word, developer by member', () => {
    expect([
      inCountry('CI', 'ci'),
      inCountry('CI', 'Ivory Coast'),
      inCountry('CI', 'Côte d’Ivoire'),
    ]).to.deep.equal([true, true, true]);
    expect([inCountry('CI', 'Senegal'), inCountry(null, 'CI')]).to.deep.equal([false, false]);
    expect([
      ofTechnology('solar_pv', 'Solar PV'),
      ofTechnology('solar_pv', 'PV'),
      ofTechnology('hydro', 'solar'),
    ]).to.deep.equal([true, true, false]);
    expect(developedBy('Orvanta Energy Partners / Kijani Nishati Ltd', 'Kijani Nishati Limited')).to.equal(
      true,
    );
    expect(developedBy('Orvanta Energy Partners', 'Orvanta Energy')).to.equal(false);
  });

  it('a party’s names are its name and spellings; its extension values rounded as the roll-ups round them', () => {
    const facts = partyFacts(party);
    expect(facts.names).to.deep.equal(['Acme Power Ltd', 'Acme Power Ltd', 'ACME POWER LTD']);
    expect(facts.agrees('role', [{ text: 'procuring entity' }])).to.equal(true);
    expect(facts.agrees('role', [{ text: 'offtaker' }])).to.equal(false);
    expect(facts.agrees('country', [{ text: 'Kenya' }])).to.equal(true);
    const extension = presentExtension(
      PARTY_SERVICE,
      {
        ids: [party.id, 'none'],
        properties: ['ppas', 'capacity_mw', 'guaranteed_amount_usd', 'countries', 'roles'],
      },
      (id, property) => (id === party.id ? partyExtendValues(party, property) : []),
    );
    expect(extension.rows[party.id]).to.deep.equal({
      ppas: [{ int: 4 }],
      capacity_mw: [{ float: 120 }],
      guaranteed_amount_usd: [{ float: 1001 }],
      countries: [{ str: 'KE' }, { str: 'CI' }],
      roles: [{ str: 'developer' }, { str: 'procuring_entity' }],
    });
    expect(reconciliationProblems('extendResponse', extension)).to.deep.equal([]);
  });

  it('escapes what a card shows', () => {
    expect(escapeHtml(`<a href="x">O'Neil & Co</a>`)).to.equal(
      '&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; Co&lt;/a&gt;',
    );
    expect(previewCard('<b>', 'https://x/"', [['<i>', '&']])).to.include('<h1><a href="https://x/&quot;"');
  });
});
