// The one API prefix, and the one check of whether a path is under it.

export const API_PREFIX = '/api/v1';

/** `/ppas` → `/api/v1/ppas`. */
export const apiPath = (path: string): string => `${API_PREFIX}${path}`;

/**
 * The prefix itself or a path under it, compared without case: the routers match paths case-insensitively
 * (/API/V1/PPAS is /api/v1/ppas), so a check that cared about case could be sidestepped.
 */
export function isApiPath(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === API_PREFIX || lower.startsWith(`${API_PREFIX}/`);
}

/** The paths of a reconciliation service (W3C Reconciliation Service API 0.2): its root takes query batches. */
function reconcilePaths(service: string) {
  const root = apiPath(`/reconcile/${service}`);
  return {
    root,
    suggestEntity: `${root}/suggest/entity`,
    suggestProperty: `${root}/suggest/property`,
    suggestType: `${root}/suggest/type`,
    preview: `${root}/preview`,
    properties: `${root}/properties`,
  } as const;
}

/** Every path the API serves, declared once: the operations serve them, the presenters link to them. */
export const API_PATHS = {
  ppas: apiPath('/ppas'),
  statistics: apiPath('/ppas/statistics'),
  export: apiPath('/ppas/export'),
  changes: apiPath('/ppas/changes'),
  feed: apiPath('/ppas/feed'),
  suggest: apiPath('/ppas/suggest'),
  ocdsReleases: apiPath('/ppas/ocds'),
  ppa: apiPath('/ppas/{slug}'),
  ppaOcds: apiPath('/ppas/{slug}/ocds'),
  flags: apiPath('/flags'),
  parties: apiPath('/parties'),
  party: apiPath('/parties/{id}'),
  ocdsExtensionFile: apiPath('/ocds/{file}'),
  ocdsExtensionCodelist: apiPath('/ocds/codelists/{file}'),
  openApiDocument: apiPath('/openapi.json'),
  docs: apiPath('/docs'),
} as const;

/** The reconciliation services' paths, by service (each service's own operations serve them). */
export const RECONCILE_PATHS = {
  ppas: reconcilePaths('ppas'),
  parties: reconcilePaths('parties'),
} as const;
