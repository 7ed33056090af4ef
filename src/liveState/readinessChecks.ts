// What readiness says of this instance, check by check, and whether it is ready: for load balancers. Unready only
// when Elasticsearch or the alias is away, or the live index needs a newer API; the rate limiter's store, a
// held-back sync and shedding load are reported, never a reason to be unready. The checks' body schemas are
// declared here, beside what fills them (GET /health/ready documents and sends them: src/operations/readiness.ts).
import { INDEX_CONTRACT_VERSION } from '../../indexContract/contract.js';
import { ServiceUnavailableError } from '../http/problem.js';
import type { Admission } from '../gateway/admission.js';
import {
  constant,
  oneOf,
  optionalInteger,
  optionalString,
  record,
  ref,
  Type,
  type Static,
} from '../wire/bodySchema.js';
import type { LiveState } from './liveState.js';
import type { LiveLookups } from './lookups.js';
import type { ServedStateWatcher } from './servedStateWatcher.js';
import type { ZeroResultsLog } from '../zeroResults/zeroResultsLog.js';

const ElasticsearchCheckSchema = record({
  status: oneOf(['ok', 'down'], { description: 'down: unreachable, timing out or alias missing.' }),
  cluster: Type.Boolean({ description: 'The cluster answered.' }),
  alias: Type.Boolean({ description: 'The alias (ES_INDEX) exists.' }),
  detail: optionalString(),
});

const RateLimitCheckSchema = record({
  status: oneOf(['ok', 'degraded'], { description: 'degraded: Redis is away, limits are per instance.' }),
  store: oneOf(['redis', 'memory']),
  detail: optionalString(),
});

const ZeroResultsCheckSchema = record({
  status: oneOf(['ok', 'degraded'], {
    description:
      'degraded: Redis is away, the searches that found nothing are counted by this instance alone.',
  }),
  store: oneOf(['redis', 'memory'], {
    description:
      'Where the searches that found nothing are counted: shared (redis) or this instance (memory).',
  }),
  detail: optionalString(),
});

const SyncCheckSchema = Type.Object(
  {
    status: oneOf(['ok', 'held', 'unknown']),
    detail: optionalString(),
    high_water_mark: Type.Optional(
      optionalString({ description: "Where sync's last complete run read up to." }),
    ),
    changes_head: Type.Optional(
      optionalInteger({ description: "The change log's last sequence (null: no log)." }),
    ),
    held_since: Type.Optional(Type.String({ format: 'date-time' })),
    removals: Type.Optional(Type.Integer({ minimum: 0 })),
    live: Type.Optional(Type.Integer({ minimum: 0 })),
    max_removed: Type.Optional(Type.String()),
  },
  {
    description:
      'What sync is doing to the live index. "held": a run would remove more than --max-removed of the live PPAs, ' +
      'so nothing of it is applied (the index is still served whole; not a reason to be unready). "unknown": not ' +
      'readable now.',
  },
);
type SyncCheck = Static<typeof SyncCheckSchema>;

const LoadCheckSchema = Type.Object(
  {
    status: oneOf(['ok', 'shedding', 'unknown']),
    detail: optionalString(),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Searches this instance lets run at once now.' }),
    ),
    in_flight: Type.Optional(Type.Integer({ minimum: 0 })),
    queued: Type.Optional(Type.Integer({ minimum: 0 })),
    refused_total: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Searches refused for overload since start.' }),
    ),
  },
  {
    description:
      'Admission control in front of Elasticsearch. "shedding": searches beyond what Elasticsearch can take now ' +
      'were refused in the last 10 s (503 overloaded); cached answers are served as usual. Never a reason to be ' +
      'unready: a busy instance is not broken. "unknown": no admission control in this instance.',
  },
);
type LoadCheck = Static<typeof LoadCheckSchema>;

const IndexCheckSchema = record(
  {
    status: oneOf(['ok', 'reindex_recommended', 'incompatible', 'unknown']),
    contract_version: optionalInteger({
      minimum: 1,
      description: 'The index contract the live index was built to (1: before versions were recorded).',
    }),
    release: optionalString({ description: 'The release that built the live index (null: before 0.2.0).' }),
    api_contract_version: Type.Integer({
      minimum: 1,
      description: 'The index contract this API serves fully.',
    }),
    missing_fields: Type.Array(Type.String(), {
      description:
        "Fields of this release's mapping the live index lacks: q matches nothing through them until a reindex.",
    }),
    detail: optionalString(),
  },
  'The live index against the contract this API serves. "reindex_recommended": built by an older release, served as ' +
    'it is (every answer of the contract is right) but a reindex gives q all it can match; never a reason to be ' +
    'unready. "incompatible": built for a newer API than this one: not ready. "unknown": not readable now.',
);
type IndexCheck = Static<typeof IndexCheckSchema>;

const checks = {
  elasticsearch: ref('ElasticsearchCheck', ElasticsearchCheckSchema),
  rate_limit: ref('RateLimitCheck', RateLimitCheckSchema),
  zero_results: ref('ZeroResultsCheck', ZeroResultsCheckSchema),
  sync: ref('SyncCheck', SyncCheckSchema),
  load: ref('LoadCheck', LoadCheckSchema),
  index: ref('IndexCheck', IndexCheckSchema),
};

export const ReadinessSchema = record({ status: constant('ready'), ...checks });
export type Checks = Omit<Static<typeof ReadinessSchema>, 'status'>;

export const NotReadySchema = Type.Unsafe<Checks>({
  allOf: [{ $ref: '#/components/schemas/Problem' }],
  type: 'object',
  required: Object.keys(checks),
  properties: { status: { const: 503 }, ...checks },
});

/** Seconds a balancer is asked to wait before checking an unready instance again. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

export class NotReadyError extends ServiceUnavailableError {
  constructor(checks: Checks, detail: string) {
    super(detail, NOT_READY_RETRY_AFTER_SECONDS);
    Object.assign(this.extensions, checks);
  }
}

/** What readiness says of sync: "held" while it holds back a mass removal (the site still serves everything). */
async function syncCheck(servedState: ServedStateWatcher): Promise<SyncCheck> {
  try {
    const { syncGuard, highWaterMark, head } = await servedState.fresh();
    const common = { high_water_mark: highWaterMark, changes_head: head ? head.seq : null };
    if (!syncGuard) return { status: 'ok', ...common, detail: null };
    return {
      status: 'held',
      ...common,
      held_since: syncGuard.since,
      removals: syncGuard.removals,
      live: syncGuard.live,
      max_removed: syncGuard.max_removed,
      detail:
        `sync is holding back a run that would remove ${syncGuard.removals} of ${syncGuard.live} live PPAs ` +
        `(more than --max-removed ${syncGuard.max_removed}); nothing of it is applied and the index is served whole ` +
        'until the source is repaired or an operator runs sync with --max-removed',
    };
  } catch {
    return { status: 'unknown', detail: 'the change log and sync state could not be read' };
  }
}

/** What readiness says of the live index's contract: served fully, a reindex recommended, or incompatible. */
async function indexCheck(lookups: LiveLookups): Promise<IndexCheck> {
  const unknown = (detail: string): IndexCheck => ({
    status: 'unknown',
    contract_version: null,
    release: null,
    api_contract_version: INDEX_CONTRACT_VERSION,
    missing_fields: [],
    detail,
  });
  try {
    const reading = await lookups.indexContract();
    if (!reading) return unknown('no live index behind the alias');
    return {
      status: reading.status,
      contract_version: reading.contractVersion ?? 1,
      release: reading.release,
      api_contract_version: INDEX_CONTRACT_VERSION,
      missing_fields: reading.missingFields,
      detail: reading.detail,
    };
  } catch {
    return unknown("the live index's mapping could not be read");
  }
}

/** What readiness says of load: "shedding" while searches are being refused for overload (still ready). */
function loadCheck(admission: Admission | undefined): LoadCheck {
  if (!admission) return { status: 'unknown', detail: null };
  const state = admission.state();
  return {
    status: state.shedding ? 'shedding' : 'ok',
    limit: state.limit,
    in_flight: state.inFlight,
    queued: state.queued,
    refused_total: state.refused,
    detail: state.shedding
      ? 'at capacity: searches beyond what Elasticsearch can take now are refused at once (503 overloaded); ' +
        'cached answers are served as usual'
      : null,
  };
}

/** Where the searches that found nothing are counted: degraded while a configured Redis fails. */
function zeroResultsCheck(log: ZeroResultsLog | undefined): Static<typeof ZeroResultsCheckSchema> {
  const { store, detail, shared } = log?.store() ?? { store: 'memory', detail: null, shared: false };
  return { status: shared && store === 'memory' ? 'degraded' : 'ok', store, detail };
}

/** Every check's body schema, by the name the OpenAPI document gives it. */
export const READINESS_SCHEMAS = {
  ElasticsearchCheck: ElasticsearchCheckSchema,
  RateLimitCheck: RateLimitCheckSchema,
  ZeroResultsCheck: ZeroResultsCheckSchema,
  SyncCheck: SyncCheckSchema,
  LoadCheck: LoadCheckSchema,
  IndexCheck: IndexCheckSchema,
  Readiness: ReadinessSchema,
  NotReady: NotReadySchema,
};

/** Every check, read now; throws NotReadyError (503, the checks as its extensions) when not ready. */
export async function readinessChecks(
  liveState: LiveState,
  admission: Admission | undefined,
  zeroResults?: ZeroResultsLog,
): Promise<Checks> {
  const [state, sync, index] = await Promise.all([
    liveState.lookups.ready(),
    syncCheck(liveState.served),
    indexCheck(liveState.lookups),
  ]);
  const incompatible = index.status === 'incompatible';
  const ready = state.cluster && state.alias && !incompatible;
  const health = liveState.limiterHealth();
  const checks: Checks = {
    elasticsearch: {
      status: state.cluster && state.alias ? 'ok' : 'down',
      cluster: state.cluster,
      alias: state.alias,
      detail: state.detail ?? null,
    },
    // Degraded (Redis away, in-memory limits) still serves: it is reported, not a reason to be unready.
    rate_limit: { status: health.status, store: health.store, detail: health.detail ?? null },
    zero_results: zeroResultsCheck(zeroResults),
    // Held back (a mass removal refused) still serves: reported, not a reason to be unready, since an unready
    // fleet would take down the very index the guard keeps whole.
    sync,
    // Shedding (refusing searches beyond capacity) still serves: reported, not a reason to be unready, since
    // taking a busy instance out of rotation moves its load onto the others.
    load: loadCheck(admission),
    // An older index is served as it is (ready, a reindex recommended); one built for a newer API is not.
    index,
  };
  if (!ready) {
    const why = incompatible
      ? `The live index: ${index.detail}.`
      : `Elasticsearch: ${state.detail ?? 'not ready'}.`;
    throw new NotReadyError(checks, why);
  }
  return checks;
}
