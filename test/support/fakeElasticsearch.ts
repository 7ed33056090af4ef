// A small Elasticsearch in-process, for the indexer's unit tests: a real @elastic/elasticsearch Client whose
// connection (fakeConnection.ts) is answered by a model of one node: indices (flat settings, mappings with their
// _meta, documents with sequence numbers), aliases, and the requests the indexer makes: _alias/_aliases, _cat/indices,
// index create/exists/delete, _mapping, _settings, _refresh, _flush, _cluster/health, _nodes stats (the cluster's
// clock), _bulk, _doc (op_type=create, if_seq_no/if_primary_term), _mget, _count and _search (match_all, term,
// terms, ids, range, exists and bool queries; sort with search_after; _source includes; composite and filters
// aggregations). What it cannot answer fails the request loudly (HTTP 501), never silently.
//
// Like Elasticsearch: get and mget are realtime, while searches, counts and _cat/indices see an index as of its last
// refresh (a request's refresh=true, or _refresh). Unlike it: nothing refreshes by itself, and no write creates a
// missing index (both would only hide a step the indexer forgot).
//
// Tests script failures with intercept() (any request: a status, a delay, a refused connection, or a side effect
// such as aborting a run at a given step) and refuseItems() (one bulk item refused, as a mapping error would).
// listen() serves the same cluster over HTTP, for code that makes its own client from ES_URL.
import type { Client } from '@elastic/elasticsearch';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareBytes } from '../../indexer/slugOrder.js';
import { bodyText, fakeCluster, parsedBody, type FakeAnswer, type FakeCall } from './fakeConnection.js';

export type Source = Record<string, unknown>;

interface StoredDocument {
  source: Source;
  seqNo: number;
}

export interface FakeIndex {
  readonly name: string;
  /** Index settings, flattened without the `index.` prefix: `refresh_interval`, `translog.durability`, … */
  settings: Record<string, unknown>;
  /** The mapping as created and updated (`_meta`, `properties`, `dynamic`, …). */
  mappings: { _meta?: Record<string, unknown>; properties?: Record<string, unknown>; [key: string]: unknown };
  aliases: Set<string>;
  /** Every write at once (what get and mget read). */
  documents: Map<string, StoredDocument>;
  /** The documents as of the last refresh (what searches, counts and _cat read). */
  searchable: Map<string, StoredDocument>;
  seqNo: number;
  refreshes: number;
  flushes: number;
}

/** A bulk item refused: its status and error type (a 429 is retried by the indexer, anything else is not). */
export interface ItemRefusal {
  status: number;
  type: string;
  reason?: string;
}

export interface ClusterHealth {
  status: 'green' | 'yellow' | 'red';
  number_of_data_nodes: number;
  unassigned_shards: number;
  initializing_shards: number;
}

export interface FakeElasticsearch {
  client: Client;
  /** Every request made, in order. */
  calls: FakeCall[];
  indices: Map<string, FakeIndex>;
  /** The cluster's clock (`_nodes/_local/stats`): what lock expiries are measured on. */
  now: () => number;
  /** What `_cluster/health` reports; a `wait_for_status` it does not reach answers 408 with timed_out. */
  health: ClusterHealth;
  /** Answers a request before the model does when `hook` returns an answer; returns a function that removes it. */
  intercept(hook: (call: FakeCall) => FakeAnswer | undefined): () => void;
  /** Refuses the bulk items (index or create) `hook` returns a refusal for. */
  refuseItems(hook: (index: string, id: string, source: Source) => ItemRefusal | undefined): void;
  /** An index made as a test needs it, its documents already searchable. */
  addIndex(name: string, contents?: IndexContents): FakeIndex;
  /** The index `alias` points at (null: none); throws when it points at several. */
  aliasTarget(alias: string): string | null;
  /** The documents of `index` as they are now (realtime), by id. */
  sources(index: string): Map<string, Source>;
  /** The requests as `METHOD /path` (path decoded, no query string), for checking their order. */
  requests(): string[];
  /**
   * The same Elasticsearch over HTTP on a local port, for code that makes its own client from ES_URL (the CLI's
   * commands); its requests are added to `calls`.
   */
  listen(): Promise<{ url: string; close(): Promise<void> }>;
}

export interface IndexContents {
  /** [id, source] pairs, or sources whose `slug` is their id. */
  documents?: Iterable<[id: string, source: object]> | readonly object[];
  meta?: Record<string, unknown>;
  aliases?: readonly string[];
  settings?: Record<string, unknown>;
}

/** A failure Elasticsearch would answer: thrown by a handler, answered as its status and error body. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

const notFound = (index: string) => new Refusal(404, 'index_not_found_exception', `no such index [${index}]`);

export function fakeElasticsearch(): FakeElasticsearch {
  const indices = new Map<string, FakeIndex>();
  const hooks: ((call: FakeCall) => FakeAnswer | undefined)[] = [];
  let refuse: (index: string, id: string, source: Source) => ItemRefusal | undefined = () => undefined;
  const model = new Model(indices, (index, id, source) => refuse(index, id, source));
  const answer = (call: FakeCall): FakeAnswer => {
    for (const hook of hooks) {
      const scripted = hook(call);
      if (scripted !== undefined) return scripted;
    }
    return model.answer(call);
  };
  const cluster = fakeCluster(answer);
  const fake: FakeElasticsearch = {
    client: cluster.client,
    calls: cluster.calls,
    indices,
    get now() {
      return model.now;
    },
    set now(clock) {
      model.now = clock;
    },
    get health() {
      return model.health;
    },
    set health(health) {
      model.health = health;
    },
    intercept(hook) {
      hooks.push(hook);
      return () => void hooks.splice(hooks.indexOf(hook), 1);
    },
    refuseItems(hook) {
      refuse = hook;
    },
    addIndex: (name, contents = {}) => model.addIndex(name, contents),
    aliasTarget(alias) {
      const holding = [...indices.values()].filter((index) => index.aliases.has(alias));
      if (holding.length > 1) throw new Error(`alias ${alias} points at ${holding.length} indices`);
      return holding[0]?.name ?? null;
    },
    sources(name) {
      const index = indices.get(name);
      if (!index) throw new Error(`no index ${name}`);
      return new Map([...index.documents].map(([id, stored]) => [id, stored.source]));
    },
    requests: () => cluster.calls.map((call) => `${call.method} ${decodeURIComponent(call.path)}`),
    listen: () => listen(answer, cluster.calls),
  };
  return fake;
}

const HTTP_HEADERS = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };

async function listen(
  answer: (call: FakeCall) => FakeAnswer,
  calls: FakeCall[],
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const call: FakeCall = {
        node: 'http',
        method: request.method ?? 'GET',
        path: url.pathname,
        querystring: url.search.slice(1),
        body: parsedBody(body),
        text: bodyText(body),
        timeout: undefined,
        signal: undefined,
      };
      calls.push(call);
      const reply = answer(call);
      if (reply === 'refused' || reply === 'hang') {
        if (reply === 'refused') request.socket.destroy();
        return;
      }
      const send = () =>
        response
          .writeHead(reply.status ?? 200, HTTP_HEADERS)
          .end(call.method === 'HEAD' ? undefined : JSON.stringify(reply.body ?? {}));
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const HANDLED_OUTSIDE_AN_INDEX = new Set([
  '_alias',
  '_aliases',
  '_cat',
  '_cluster',
  '_nodes',
  '_bulk',
  '_mget',
]);

class Model {
  now: () => number = () => Date.now();
  health: ClusterHealth = {
    status: 'green',
    number_of_data_nodes: 1,
    unassigned_shards: 0,
    initializing_shards: 0,
  };

  constructor(
    private readonly indices: Map<string, FakeIndex>,
    private readonly refusalOf: (index: string, id: string, source: Source) => ItemRefusal | undefined,
  ) {}

  answer(call: FakeCall): FakeAnswer {
    try {
      const query = new URLSearchParams(call.querystring);
      const segments = call.path.split('/').filter(Boolean).map(decodeURIComponent);
      const [first = '', ...rest] = segments;
      const body = (call.body ?? {}) as Record<string, unknown>;
      const answered = HANDLED_OUTSIDE_AN_INDEX.has(first)
        ? this.clusterRequest(call, first, rest, body)
        : this.indexRequest(call, first, rest, body, query);
      if (answered === undefined)
        throw new Refusal(501, 'fake_unsupported_request', `no route for ${call.method} ${call.path}`);
      return answered;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const cause = { type: error.type, reason: error.message };
      return {
        status: error.status,
        body: { error: { root_cause: [cause], ...cause }, status: error.status, ...error.extra },
      };
    }
  }

  addIndex(name: string, contents: IndexContents): FakeIndex {
    const index = this.createIndex(name, {
      settings: contents.settings ?? {},
      mappings: contents.meta ? { _meta: contents.meta } : {},
    });
    for (const alias of contents.aliases ?? []) index.aliases.add(alias);
    for (const entry of contents.documents ?? []) {
      const [id, source] = Array.isArray(entry) ? entry : [(entry as { slug: unknown }).slug, entry];
      if (typeof id !== 'string') throw new Error(`a document of ${name} has no id`);
      this.write(index, id, source as Source);
    }
    this.refresh(index);
    return index;
  }

  // ---- requests outside one index ------------------------------------------------------------------------------

  private clusterRequest(
    call: FakeCall,
    first: string,
    rest: string[],
    body: Record<string, unknown>,
  ): FakeAnswer | undefined {
    const { method } = call;
    if (first === '_alias' && method === 'GET' && rest.length === 1) return this.getAlias(rest[0]!);
    if (first === '_aliases' && method === 'POST') return this.updateAliases(body);
    if (first === '_cat' && rest[0] === 'indices' && method === 'GET') return this.catIndices(rest[1] ?? '*');
    if (first === '_cluster' && rest[0] === 'health') return this.clusterHealth(rest[1], call);
    if (first === '_nodes' && rest.includes('stats'))
      return { body: { nodes: { 'fake-node': { timestamp: this.now() } } } };
    if (first === '_bulk' && (method === 'POST' || method === 'PUT')) return this.bulk(undefined, call);
    if (first === '_mget') return this.mget(undefined, body);
    return undefined;
  }

  private getAlias(alias: string): FakeAnswer {
    const holding = [...this.indices.values()].filter((index) => index.aliases.has(alias));
    if (holding.length === 0)
      return { status: 404, body: { error: `alias [${alias}] missing`, status: 404 } };
    return {
      body: Object.fromEntries(holding.map((index) => [index.name, { aliases: { [alias]: {} } }])),
    };
  }

  /** All actions or none (Elasticsearch applies them atomically). */
  private updateAliases(body: Record<string, unknown>): FakeAnswer {
    type Action = { index: string; alias: string; must_exist?: boolean };
    const actions = (body.actions ?? []) as Record<string, Action>[];
    const steps = actions.map((action) => {
      const [kind, spec] = Object.entries(action)[0]!;
      if (kind !== 'add' && kind !== 'remove')
        throw new Refusal(501, 'fake_unsupported_request', `alias action ${kind}`);
      const index = this.indices.get(spec.index);
      if (!index) throw notFound(spec.index);
      if (kind === 'remove' && spec.must_exist && !index.aliases.has(spec.alias))
        throw new Refusal(404, 'aliases_not_found_exception', `aliases [${spec.alias}] missing`);
      return { kind, index, alias: spec.alias };
    });
    for (const { kind, index, alias } of steps) {
      if (kind === 'add') index.aliases.add(alias);
      else index.aliases.delete(alias);
    }
    return { body: { acknowledged: true } };
  }

  private catIndices(expression: string): FakeAnswer {
    const names = this.resolve(expression, true);
    return {
      body: names.sort().map((name) => ({
        health: 'green',
        status: 'open',
        index: name,
        'docs.count': String(this.indices.get(name)!.searchable.size),
      })),
    };
  }

  private clusterHealth(expression: string | undefined, call: FakeCall): FakeAnswer {
    if (expression !== undefined) this.resolve(expression, false);
    const wanted = new URLSearchParams(call.querystring).get('wait_for_status');
    const rank = { red: 0, yellow: 1, green: 2 } as const;
    const timedOut = wanted !== null && rank[this.health.status] < rank[wanted as keyof typeof rank];
    return {
      status: timedOut ? 408 : 200,
      body: { cluster_name: 'fake', timed_out: timedOut, number_of_nodes: 1, ...this.health },
    };
  }

  // ---- requests to an index (or an alias, or a pattern) --------------------------------------------------------

  private indexRequest(
    call: FakeCall,
    target: string,
    rest: string[],
    body: Record<string, unknown>,
    query: URLSearchParams,
  ): FakeAnswer | undefined {
    const { method } = call;
    const [action, id] = rest;
    if (action === undefined) {
      if (method === 'HEAD') return { status: this.resolve(target, true).length > 0 ? 200 : 404 };
      if (method === 'PUT') return this.createIndexRequest(target, body);
      if (method === 'DELETE') return this.deleteIndices(target, query);
      return undefined;
    }
    if (action === '_doc' || action === '_create') {
      if (id === undefined) return undefined;
      const index = this.one(target);
      if (method === 'GET') return this.getDocument(index, id);
      if (method === 'DELETE') return this.deleteDocument(index, id, query);
      if (method === 'PUT' || method === 'POST') {
        if (action === '_create') query.set('op_type', 'create');
        return this.indexDocument(index, id, body, query);
      }
      return undefined;
    }
    const each = () => this.resolve(target, query.get('ignore_unavailable') === 'true');
    switch (action) {
      case '_mapping':
        if (method === 'GET')
          return {
            body: Object.fromEntries(each().map((name) => [name, { mappings: this.get(name).mappings }])),
          };
        for (const name of each()) this.putMapping(this.get(name), body);
        return { body: { acknowledged: true } };
      case '_settings':
        if (method !== 'PUT') return undefined;
        for (const name of each()) Object.assign(this.get(name).settings, flatSettings(body));
        return { body: { acknowledged: true } };
      case '_refresh':
        for (const name of each()) this.refresh(this.get(name));
        return { body: { _shards: { total: 1, successful: 1, failed: 0 } } };
      case '_flush':
        for (const name of each()) this.get(name).flushes++;
        return { body: { _shards: { total: 1, successful: 1, failed: 0 } } };
      case '_count':
        return { body: { count: this.matching(each(), body.query).length } };
      case '_search':
        return { body: this.search(each(), body) };
      case '_mget':
        return this.mget(target, body);
      case '_bulk':
        return this.bulk(target, call);
      default:
        return undefined;
    }
  }

  private createIndexRequest(name: string, body: Record<string, unknown>): FakeAnswer {
    if (this.indices.has(name))
      throw new Refusal(400, 'resource_already_exists_exception', `index [${name}] already exists`);
    const index = this.createIndex(name, body);
    for (const alias of Object.keys((body.aliases ?? {}) as object)) index.aliases.add(alias);
    return { body: { acknowledged: true, shards_acknowledged: true, index: name } };
  }

  private createIndex(name: string, body: Record<string, unknown>): FakeIndex {
    const index: FakeIndex = {
      name,
      settings: flatSettings((body.settings ?? {}) as Record<string, unknown>),
      mappings: structuredClone((body.mappings ?? {}) as FakeIndex['mappings']),
      aliases: new Set(),
      documents: new Map(),
      searchable: new Map(),
      seqNo: -1,
      refreshes: 0,
      flushes: 0,
    };
    this.indices.set(name, index);
    return index;
  }

  private deleteIndices(expression: string, query: URLSearchParams): FakeAnswer {
    for (const name of this.resolve(expression, query.get('ignore_unavailable') === 'true'))
      this.indices.delete(name);
    return { body: { acknowledged: true } };
  }

  /** A mapping update: `_meta` is replaced whole, properties are added to the ones there. */
  private putMapping(index: FakeIndex, body: Record<string, unknown>): void {
    const { properties, ...others } = body;
    Object.assign(index.mappings, structuredClone(others));
    if (properties)
      index.mappings.properties = { ...index.mappings.properties, ...structuredClone(properties) };
  }

  // ---- documents -------------------------------------------------------------------------------------------------

  private getDocument(index: FakeIndex, id: string): FakeAnswer {
    const stored = index.documents.get(id);
    if (!stored) return { status: 404, body: { _index: index.name, _id: id, found: false } };
    return { body: { ...this.version(index, id, stored), found: true, _source: stored.source } };
  }

  private indexDocument(
    index: FakeIndex,
    id: string,
    source: Record<string, unknown>,
    query: URLSearchParams,
  ): FakeAnswer {
    const existing = index.documents.get(id);
    if (query.get('op_type') === 'create' && existing)
      throw new Refusal(409, 'version_conflict_engine_exception', `[${id}]: document already exists`);
    this.checkVersion(index, id, existing, query);
    const stored = this.write(index, id, source);
    if (query.get('refresh') === 'true' || query.get('refresh') === 'wait_for') this.refresh(index);
    return {
      status: existing ? 200 : 201,
      body: { ...this.version(index, id, stored), result: existing ? 'updated' : 'created' },
    };
  }

  private deleteDocument(index: FakeIndex, id: string, query: URLSearchParams): FakeAnswer {
    const existing = index.documents.get(id);
    this.checkVersion(index, id, existing, query);
    if (!existing) return { status: 404, body: { _index: index.name, _id: id, result: 'not_found' } };
    index.documents.delete(id);
    index.seqNo++;
    if (query.get('refresh') === 'true') this.refresh(index);
    return {
      body: { _index: index.name, _id: id, result: 'deleted', _seq_no: index.seqNo, _primary_term: 1 },
    };
  }

  /** if_seq_no / if_primary_term: the write applies only to the version named. */
  private checkVersion(
    index: FakeIndex,
    id: string,
    existing: StoredDocument | undefined,
    query: URLSearchParams,
  ): void {
    const seqNo = query.get('if_seq_no');
    if (seqNo === null) return;
    if (!existing || String(existing.seqNo) !== seqNo || query.get('if_primary_term') !== '1') {
      throw new Refusal(
        409,
        'version_conflict_engine_exception',
        `[${id}]: version conflict, required seqNo [${seqNo}], current ${existing ? existing.seqNo : 'none'}`,
      );
    }
  }

  private version(index: FakeIndex, id: string, stored: StoredDocument) {
    return { _index: index.name, _id: id, _version: 1, _seq_no: stored.seqNo, _primary_term: 1 };
  }

  private write(index: FakeIndex, id: string, source: Source): StoredDocument {
    const stored = { source: structuredClone(source), seqNo: ++index.seqNo };
    index.documents.set(id, stored);
    return stored;
  }

  private mget(target: string | undefined, body: Record<string, unknown>): FakeAnswer {
    const wanted = Array.isArray(body.ids)
      ? (body.ids as string[]).map((id) => ({ _index: target, _id: id }))
      : ((body.docs ?? []) as { _index?: string; _id: string }[]).map((doc) => ({
          _index: doc._index ?? target,
          _id: doc._id,
        }));
    const docs = wanted.map(({ _index: name, _id: id }) => {
      const index = name === undefined ? undefined : this.indices.get(this.resolve(name, true)[0] ?? name);
      if (!index) {
        const cause = { type: 'index_not_found_exception', reason: `no such index [${name}]` };
        return { _index: name, _id: id, error: { root_cause: [cause], ...cause } };
      }
      const stored = index.documents.get(id);
      return stored
        ? { ...this.version(index, id, stored), found: true, _source: stored.source }
        : { _index: index.name, _id: id, found: false };
    });
    return { body: { docs } };
  }

  /** Each item applied alone, as Elasticsearch does: a refused one fails only itself. */
  private bulk(target: string | undefined, call: FakeCall): FakeAnswer {
    const lines = (call.text ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, { _index?: string; _id?: string }>);
    const items: Record<string, unknown>[] = [];
    const touched = new Set<FakeIndex>();
    for (let at = 0; at < lines.length; at++) {
      const [kind, meta] = Object.entries(lines[at]!)[0]!;
      if (kind !== 'index' && kind !== 'create' && kind !== 'delete')
        throw new Refusal(501, 'fake_unsupported_request', `bulk action ${kind}`);
      const source = kind === 'delete' ? undefined : (lines[++at] as Source);
      const name = meta._index ?? target ?? '';
      const id = meta._id ?? `auto-${at}`;
      const index = this.indices.get(name);
      const item = index
        ? this.bulkItem(kind, index, id, source)
        : failedItem(404, 'index_not_found_exception');
      if (index) touched.add(index);
      items.push({ [kind]: { _index: name, _id: id, ...item } });
    }
    if (new URLSearchParams(call.querystring).get('refresh') === 'true')
      for (const index of touched) this.refresh(index);
    const errors = items.some((item) => 'error' in (Object.values(item)[0] as object));
    return { body: { took: 1, errors, items } };
  }

  private bulkItem(
    kind: 'index' | 'create' | 'delete',
    index: FakeIndex,
    id: string,
    source: Source | undefined,
  ): Record<string, unknown> {
    const existing = index.documents.get(id);
    if (kind === 'delete') {
      if (!existing) return { status: 404, result: 'not_found' };
      index.documents.delete(id);
      return { status: 200, result: 'deleted', _seq_no: ++index.seqNo };
    }
    const refusal = this.refusalOf(index.name, id, source!);
    if (refusal) return failedItem(refusal.status, refusal.type, refusal.reason);
    if (kind === 'create' && existing) return failedItem(409, 'version_conflict_engine_exception');
    const stored = this.write(index, id, source!);
    return { status: existing ? 200 : 201, result: existing ? 'updated' : 'created', _seq_no: stored.seqNo };
  }

  // ---- search ----------------------------------------------------------------------------------------------------

  private refresh(index: FakeIndex): void {
    index.searchable = new Map(index.documents);
    index.refreshes++;
  }

  /** The searchable documents of `names` that `query` matches. */
  private matching(names: readonly string[], query: unknown): Hit[] {
    return names.flatMap((name) =>
      [...this.get(name).searchable]
        .map(([id, stored]) => ({ index: name, id, source: stored.source }))
        .filter((hit) => matches(hit, query as Query | undefined)),
    );
  }

  private search(names: readonly string[], body: Record<string, unknown>): Record<string, unknown> {
    const hits = this.matching(names, body.query);
    const sort = sortSpecs(body.sort);
    const keyed = hits.map((hit) => ({ hit, key: sort.map((spec) => sortValue(hit, spec)) }));
    keyed.sort((a, b) => compareKeys(a.key, b.key, sort) || compareBytes(a.hit.id, b.hit.id));
    const after = body.search_after as unknown[] | undefined;
    const afterAt = after ? keyed.filter(({ key }) => compareKeys(key, after, sort) > 0) : keyed;
    const from = (body.from as number | undefined) ?? 0;
    const size = (body.size as number | undefined) ?? 10;
    const page = afterAt.slice(from, from + size);
    return {
      took: 1,
      timed_out: false,
      _shards: { total: names.length, successful: names.length, skipped: 0, failed: 0 },
      hits: {
        ...(body.track_total_hits === false ? {} : { total: { value: hits.length, relation: 'eq' } }),
        hits: page.map(({ hit, key }) => ({
          _index: hit.index,
          _id: hit.id,
          _score: null,
          ...(body._source === false ? {} : { _source: sourceFields(hit.source, body._source) }),
          ...(sort.length > 0 ? { sort: key } : {}),
        })),
      },
      ...(body.aggs || body.aggregations
        ? {
            aggregations: aggregations((body.aggs ?? body.aggregations) as Record<string, Aggregation>, hits),
          }
        : {}),
    };
  }

  // ---- names -----------------------------------------------------------------------------------------------------

  /** The indices an expression names: comma-separated index names, aliases and `*` patterns. */
  private resolve(expression: string, ignoreUnavailable: boolean): string[] {
    const names = new Set<string>();
    for (const part of expression.split(',')) {
      if (part.includes('*')) {
        const pattern = new RegExp(`^${part.split('*').map(escapeRegExp).join('.*')}$`);
        for (const name of this.indices.keys()) if (pattern.test(name)) names.add(name);
        continue;
      }
      if (this.indices.has(part)) {
        names.add(part);
        continue;
      }
      const holding = [...this.indices.values()].filter((index) => index.aliases.has(part));
      if (holding.length === 0 && !ignoreUnavailable) throw notFound(part);
      for (const index of holding) names.add(index.name);
    }
    return [...names];
  }

  /** The one index a document request names (an index, or an alias on one index). */
  private one(expression: string): FakeIndex {
    const names = this.resolve(expression, false);
    if (names.length !== 1)
      throw new Refusal(400, 'illegal_argument_exception', `[${expression}] names ${names.length} indices`);
    return this.get(names[0]!);
  }

  private get(name: string): FakeIndex {
    const index = this.indices.get(name);
    if (!index) throw notFound(name);
    return index;
  }
}

function failedItem(status: number, type: string, reason = type): Record<string, unknown> {
  return { status, error: { type, reason } };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** `{ index: { refresh_interval: '-1', translog: { durability: 'async' } } }` as `refresh_interval`, `translog.durability`. */
function flatSettings(settings: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    const name = prefix === '' && key === 'index' ? '' : `${prefix}${key}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(flat, flatSettings(value as Record<string, unknown>, name === '' ? '' : `${name}.`));
    else flat[name] = value;
  }
  return flat;
}

// ---- the query language's subset -------------------------------------------------------------------------------

interface Hit {
  index: string;
  id: string;
  source: Source;
}

type Query = Record<string, unknown>;

/** The values of a field: dotted paths followed through objects and arrays; `_id` is the document's id. */
function fieldValues(hit: Hit, field: string): unknown[] {
  if (field === '_id') return [hit.id];
  let values: unknown[] = [hit.source];
  for (const part of field.split('.')) {
    values = values
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .map((value) => (value !== null && typeof value === 'object' ? (value as Source)[part] : undefined))
      .filter((value) => value !== undefined && value !== null);
  }
  return values.flatMap((value) => (Array.isArray(value) ? value : [value]));
}

/** Strings in byte order (a keyword's), numbers by value. */
function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareBytes(String(a), String(b));
}

function matches(hit: Hit, query: Query | undefined): boolean {
  if (query === undefined) return true;
  const [kind, spec] = Object.entries(query)[0] ?? ['match_all', {}];
  const all = (clauses: unknown) => [clauses ?? []].flat().every((clause) => matches(hit, clause as Query));
  switch (kind) {
    case 'match_all':
      return true;
    case 'bool': {
      const { must, filter, must_not: mustNot, should } = spec as Record<string, unknown>;
      const shoulds = [should ?? []].flat();
      return (
        all(must) &&
        all(filter) &&
        ![mustNot ?? []].flat().some((clause) => matches(hit, clause as Query)) &&
        (shoulds.length === 0 || shoulds.some((clause) => matches(hit, clause as Query)))
      );
    }
    case 'ids':
      return ((spec as { values: string[] }).values ?? []).includes(hit.id);
    case 'exists':
      return fieldValues(hit, (spec as { field: string }).field).length > 0;
  }
  const [field, condition] = Object.entries(spec as Source).filter(([key]) => key !== 'boost')[0]!;
  const values = fieldValues(hit, field);
  switch (kind) {
    case 'term': {
      const wanted =
        condition !== null && typeof condition === 'object' ? (condition as Source).value : condition;
      return values.some((value) => compareValues(value, wanted) === 0);
    }
    case 'terms':
      return values.some((value) =>
        (condition as unknown[]).some((wanted) => compareValues(value, wanted) === 0),
      );
    case 'range': {
      const { gte, gt, lte, lt } = condition as Record<string, unknown>;
      return values.some(
        (value) =>
          (gte === undefined || compareValues(value, gte) >= 0) &&
          (gt === undefined || compareValues(value, gt) > 0) &&
          (lte === undefined || compareValues(value, lte) <= 0) &&
          (lt === undefined || compareValues(value, lt) < 0),
      );
    }
    default:
      throw new Refusal(501, 'fake_unsupported_query', `query ${kind}`);
  }
}

interface SortSpec {
  field: string;
  descending: boolean;
}

function sortSpecs(sort: unknown): SortSpec[] {
  return [sort ?? []].flat().map((entry) => {
    if (typeof entry === 'string') return { field: entry, descending: false };
    const [field, order] = Object.entries(entry as Source)[0]!;
    const direction = typeof order === 'string' ? order : (order as { order?: string }).order;
    return { field, descending: direction === 'desc' };
  });
}

/** A document's sort value: its lowest value ascending, its highest descending, null when it has none. */
function sortValue(hit: Hit, { field, descending }: SortSpec): unknown {
  const values = fieldValues(hit, field).sort(compareValues);
  return (descending ? values.at(-1) : values[0]) ?? null;
}

/** Sort keys compared, missing values last in either order (Elasticsearch's default). */
function compareKeys(a: readonly unknown[], b: readonly unknown[], sort: readonly SortSpec[]): number {
  for (let i = 0; i < sort.length; i++) {
    const [x, y] = [a[i] ?? null, b[i] ?? null];
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
      continue;
    }
    const order = compareValues(x, y) * (sort[i]!.descending ? -1 : 1);
    if (order !== 0) return order;
  }
  return 0;
}

/** `_source` as asked: all of it, or only the fields (dotted paths) listed. */
function sourceFields(source: Source, wanted: unknown): Source {
  if (!Array.isArray(wanted)) return source;
  const picked: Source = {};
  for (const field of wanted as string[]) {
    const parts = field.split('.');
    let from: unknown = source;
    for (const part of parts)
      from = from !== null && typeof from === 'object' ? (from as Source)[part] : undefined;
    if (from === undefined) continue;
    let into = picked;
    for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as Source;
    into[parts.at(-1)!] = from;
  }
  return picked;
}

type Aggregation = Record<string, Record<string, unknown>>;

function aggregations(aggs: Record<string, Aggregation>, hits: readonly Hit[]): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(aggs).map(([name, aggregation]) => {
      const [kind, spec] = Object.entries(aggregation)[0]!;
      if (kind === 'composite') return [name, composite(spec, hits)];
      if (kind === 'filters') return [name, filters(spec, hits)];
      throw new Refusal(501, 'fake_unsupported_aggregation', `aggregation ${kind}`);
    }),
  );
}

/** Buckets of every combination of the sources' terms, in key order (null first), a page after `after`. */
function composite(spec: Record<string, unknown>, hits: readonly Hit[]): Record<string, unknown> {
  const sources = (
    spec.sources as Record<string, { terms: { field: string; missing_bucket?: boolean } }>[]
  ).map((source) => {
    const [name, { terms }] = Object.entries(source)[0]!;
    return { name, ...terms };
  });
  const counts = new Map<string, { key: Record<string, unknown>; doc_count: number }>();
  for (const hit of hits) {
    let keys: Record<string, unknown>[] = [{}];
    for (const source of sources) {
      const values = [...new Set(fieldValues(hit, source.field))];
      const options = values.length > 0 ? values : source.missing_bucket ? [null] : [];
      keys = keys.flatMap((key) => options.map((value) => ({ ...key, [source.name]: value })));
    }
    for (const key of keys) {
      const id = JSON.stringify(key);
      const bucket = counts.get(id) ?? { key, doc_count: 0 };
      bucket.doc_count++;
      counts.set(id, bucket);
    }
  }
  const order = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    for (const { name } of sources) {
      const [x, y] = [a[name] ?? null, b[name] ?? null];
      if (x === y) continue;
      if (x === null || y === null) return x === null ? -1 : 1;
      const compared = compareValues(x, y);
      if (compared !== 0) return compared;
    }
    return 0;
  };
  const after = spec.after as Record<string, unknown> | undefined;
  const buckets = [...counts.values()]
    .sort((a, b) => order(a.key, b.key))
    .filter((bucket) => !after || order(bucket.key, after) > 0)
    .slice(0, (spec.size as number | undefined) ?? 10);
  return { ...(buckets.length > 0 ? { after_key: buckets.at(-1)!.key } : {}), buckets };
}

function filters(spec: Record<string, unknown>, hits: readonly Hit[]): Record<string, unknown> {
  const count = (query: Query) => ({ doc_count: hits.filter((hit) => matches(hit, query)).length });
  const named = spec.filters as Query[] | Record<string, Query>;
  return {
    buckets: Array.isArray(named)
      ? named.map(count)
      : Object.fromEntries(Object.entries(named).map(([name, query]) => [name, count(query)])),
  };
}
