// Every operation of the API, in the order the router tries them and the OpenAPI document lists them: the literal
// segments under /ppas (statistics, export, changes, feed, suggest, ocds) before /ppas/{slug}.
import { exportPpas } from './exportPpas.js';
import { flagMethodology } from './flagMethodology.js';
import { getParty } from './getParty.js';
import { getPpa } from './getPpa.js';
import { listParties } from './listParties.js';
import { listPpas } from './listPpas.js';
import { getPpaOcds } from './getPpaOcds.js';
import { listPpasOcds } from './listPpasOcds.js';
import { liveness } from './liveness.js';
import { ocdsExtensionCodelist } from './ocdsExtensionCodelist.js';
import { ocdsExtensionFile } from './ocdsExtensionFile.js';
import { openApiDocument } from './openApiDocument.js';
import type { Operation } from './operation.js';
import { ppaChanges } from './ppaChanges.js';
import { ppaFeed } from './ppaFeed.js';
import { ppaStatistics } from './ppaStatistics.js';
import { readiness } from './readiness.js';
import { RECONCILE_PARTIES_OPERATIONS } from './reconcileParties.js';
import { RECONCILE_PPAS_OPERATIONS } from './reconcilePpas.js';
import { suggestPpas } from './suggestPpas.js';

export const OPERATIONS: readonly Operation[] = [
  listPpas,
  ppaStatistics,
  exportPpas,
  ppaChanges,
  ppaFeed,
  suggestPpas,
  listPpasOcds,
  getPpa,
  getPpaOcds,
  flagMethodology,
  listParties,
  getParty,
  ...RECONCILE_PPAS_OPERATIONS,
  ...RECONCILE_PARTIES_OPERATIONS,
  ocdsExtensionFile,
  ocdsExtensionCodelist,
  openApiDocument,
  liveness,
  readiness,
];
