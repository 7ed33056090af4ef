// /api/v1/reconcile/ppas: the PPA reconciliation service (./reconcileService.ts makes its operations): candidates
// are published, active PPAs, found by project name or reference code.
import {
  PPA_SERVICE,
  ppaExtendValues,
  ppaFacts,
  ppaPreview,
  presentSuggestedPpas,
  sourcesOf,
} from '../present/reconcilePpas.js';
import type { SuggestSource } from '../present/suggest.js';
import {
  buildPpasBySlugSearch,
  buildReconcilePpaSearch,
  type ReconcilePpaSource,
} from '../queries/reconcilePpasSearch.js';
import { buildSuggestSearch } from '../queries/suggestSearch.js';
import { reconcileOperations } from './reconcileService.js';

export const RECONCILE_PPAS_OPERATIONS = reconcileOperations<ReconcilePpaSource>({
  operationName: 'Ppas',
  description: PPA_SERVICE,
  entities: 'published, active PPAs',
  async gather(deps, queries) {
    const responses = await deps.search.msearch<ReconcilePpaSource>(queries.map(buildReconcilePpaSearch));
    return responses.map((response) => sourcesOf(response).map(ppaFacts));
  },
  async byIds(deps, ids) {
    const response = await deps.search.search<ReconcilePpaSource>(buildPpasBySlugSearch(ids));
    return sourcesOf(response).map((source) => ({ id: source.slug, source }));
  },
  extendValues: ppaExtendValues,
  preview: ppaPreview,
  async suggest(deps, { prefix, cursor, limit }) {
    // The project-name suggestions of /api/v1/ppas/suggest, from the cursor.
    const response = await deps.search.search<SuggestSource>(
      buildSuggestSearch({ q: prefix, limit: cursor + limit }),
    );
    const sources = response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
    return presentSuggestedPpas(sources.slice(cursor));
  },
});
