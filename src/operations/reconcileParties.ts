// /api/v1/reconcile/parties: the parties' reconciliation service (./reconcileService.ts makes its operations):
// candidates are the parties of the served generation (developers, each consortium member, offtakers, procuring
// entities), found by their name or any of their spellings.
import {
  PARTY_SERVICE,
  partyExtendValues,
  partyFacts,
  partyPreview,
  partySourcesOf,
  presentSuggestedParties,
} from '../present/reconcileParties.js';
import {
  buildPartiesByIdSearch,
  buildPartySuggestSearch,
  buildReconcilePartySearch,
  type ReconcilePartySource,
} from '../queries/reconcilePartiesSearch.js';
import { reconcileOperations } from './reconcileService.js';

/** The parties' searches all run on the parties' alias, each request's in one round trip. */
const ON_PARTIES = { on: 'parties' } as const;

export const RECONCILE_PARTIES_OPERATIONS = reconcileOperations<ReconcilePartySource>({
  operationName: 'Parties',
  description: PARTY_SERVICE,
  entities: 'parties: developers (each consortium member), offtakers and procuring entities',
  async gather(deps, queries) {
    const responses = await deps.search.msearch<ReconcilePartySource>(
      queries.map(buildReconcilePartySearch),
      ON_PARTIES,
    );
    return responses.map((response) => partySourcesOf(response).map(partyFacts));
  },
  async byIds(deps, ids) {
    const [response] = await deps.search.msearch<ReconcilePartySource>(
      [buildPartiesByIdSearch(ids)],
      ON_PARTIES,
    );
    return (response ? partySourcesOf(response) : []).map((source) => ({ id: source.id, source }));
  },
  extendValues: (source, property) => partyExtendValues(source, property),
  preview: partyPreview,
  async suggest(deps, params) {
    const [response] = await deps.search.msearch<ReconcilePartySource>(
      [buildPartySuggestSearch(params)],
      ON_PARTIES,
    );
    return presentSuggestedParties(response ? partySourcesOf(response) : []);
  },
});
