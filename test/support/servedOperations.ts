// Operations of the API served in-process for their unit tests: their router (src/operations/router.ts) behind the
// API's error answers, over a recording fake gateway (./recordingGateway.ts) and the services a test names. Every
// server a test starts is closed after it.
import type { ChangeLogHead } from '../../indexContract/changeLog.js';
import type { Operation, OperationDeps } from '../../src/operations/operation.js';
import { operationsRouter } from '../../src/operations/router.js';
import { raw, serveRoutes, type KoaServer, type RawAnswer } from './koaServer.js';
import { liveStateOf } from './liveState.js';
import { operationDeps } from './operationDeps.js';
import { recordingGateway, type GatewayScript, type RecordingGateway } from './recordingGateway.js';
import { servedStateOf } from './servedState.js';

export interface ServedOperations extends RecordingGateway {
  server: KoaServer;
  deps: OperationDeps;
  /** One request (GET unless said), answered as sent. */
  get(path: string, options?: { method?: string; headers?: Record<string, string> }): Promise<RawAnswer>;
}

export type ServeOperations = (
  script?: GatewayScript,
  given?: Partial<Omit<OperationDeps, 'search'>>,
) => Promise<ServedOperations>;

/**
 * Call in a describe block: the function it returns serves `operations` over a gateway answering from `script`
 * and closes the server after the test.
 */
export function operationServers(operations: readonly Operation[]): ServeOperations {
  const open: KoaServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (script = {}, given = {}) => {
    const recorded = recordingGateway(script);
    const deps = operationDeps({ ...given, search: recorded.gateway });
    const server = await serveRoutes(operationsRouter(operations, deps));
    open.push(server);
    return { ...recorded, server, deps, get: (path, options) => raw(server, path, options) };
  };
}

/**
 * A search answering `answer` and a live state whose change log's head is `head`, each noting in `order` when it
 * was asked: for the operations that read the head before they search.
 */
export function headThenSearch(head: Partial<ChangeLogHead>, answer: () => unknown) {
  const order: ('head' | 'search')[] = [];
  const script: GatewayScript = {
    search: () => {
      order.push('search');
      return answer();
    },
  };
  const liveState = liveStateOf({
    servedState: async () => {
      order.push('head');
      return servedStateOf(head);
    },
  });
  return { order, script, given: { liveState } };
}
