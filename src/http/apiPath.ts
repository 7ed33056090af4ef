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
