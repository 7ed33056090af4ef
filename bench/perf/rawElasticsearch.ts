// Plain HTTP to Elasticsearch for the raw side of the benchmark (no client library in the way), the headers the
// official client sends, and the names and cleanup of what a benchmark run creates.
import { randomBytes } from 'node:crypto';

export interface EsTarget {
  /** The first node of ES_URL, without a trailing slash. */
  url: string;
  /** Authorization (from ES_API_KEY or ES_USERNAME/ES_PASSWORD, as the API reads them), when set. */
  headers: Record<string, string>;
}

/** The content negotiation @elastic/elasticsearch 8 sends with every `_search` (checked against a stub server). */
export const CLIENT_CONTENT_HEADERS = {
  'content-type': 'application/vnd.elasticsearch+json; compatible-with=8',
  accept: 'application/vnd.elasticsearch+json; compatible-with=8',
} as const;

/** What the client sends with an `_msearch` (an NDJSON body). */
export const CLIENT_NDJSON_HEADERS = {
  'content-type': 'application/vnd.elasticsearch+x-ndjson; compatible-with=8',
  accept: 'application/vnd.elasticsearch+json; compatible-with=8',
} as const;

/** The headers of a raw request with a mix request's body. */
export const clientHeadersFor = (endpoint: string): Record<string, string> =>
  endpoint === '_msearch'
    ? CLIENT_NDJSON_HEADERS
    : endpoint.startsWith('_doc/')
      ? { accept: CLIENT_CONTENT_HEADERS.accept }
      : CLIENT_CONTENT_HEADERS;

export function esTargetFromEnv(env: NodeJS.ProcessEnv = process.env): EsTarget {
  const url = (env.ES_URL ?? 'http://127.0.0.1:9200').split(',')[0]!.trim().replace(/\/+$/, '');
  const headers: Record<string, string> = {};
  if (env.ES_API_KEY) headers.authorization = `ApiKey ${env.ES_API_KEY}`;
  else if (env.ES_USERNAME && env.ES_PASSWORD) {
    headers.authorization = `Basic ${Buffer.from(`${env.ES_USERNAME}:${env.ES_PASSWORD}`).toString('base64')}`;
  }
  return { url, headers };
}

export async function esRequest<T>(
  target: EsTarget,
  method: string,
  path: string,
  body?: string | Buffer,
  contentType = 'application/json',
): Promise<T> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { ...target.headers, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body,
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A fresh alias name: `bench-<time>-<random>`; everything a run creates starts with it. */
export function benchAlias(): string {
  return `bench-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Deletes every index whose name starts with `prefix` (the alias's data indices, lock index, raw-bulk index). */
export async function deleteIndicesWithPrefix(target: EsTarget, prefix: string): Promise<string[]> {
  const rows = await esRequest<{ index: string }[]>(
    target,
    'GET',
    `/_cat/indices/${encodeURIComponent(prefix)}*?format=json&h=index&expand_wildcards=all`,
  );
  const names = rows.map((row) => row.index).filter((name) => name.startsWith(prefix));
  if (names.length > 0) await esRequest(target, 'DELETE', `/${names.map(encodeURIComponent).join(',')}`);
  return names;
}

/** The version of the node ES_URL points at, from `_nodes/_local` (GET / can be answered by a proxy). */
export interface NodeInfo {
  version: string;
  heap: string;
  /** The node's process id (its CPU time can be read from /proc when it runs on this machine). */
  pid?: number;
}

export async function localNodeInfo(target: EsTarget): Promise<NodeInfo> {
  const response = await esRequest<{
    nodes: Record<
      string,
      { version: string; jvm?: { mem?: { heap_max_in_bytes?: number } }; process?: { id?: number } }
    >;
  }>(
    target,
    'GET',
    '/_nodes/_local/jvm,process?filter_path=nodes.*.version,nodes.*.jvm.mem.heap_max_in_bytes,nodes.*.process.id',
  );
  const node = Object.values(response.nodes)[0];
  if (!node) throw new Error('_nodes/_local answered without a node');
  const heapBytes = node.jvm?.mem?.heap_max_in_bytes;
  return {
    version: node.version,
    heap: heapBytes ? `${(heapBytes / 2 ** 30).toFixed(1)} GiB` : 'unknown',
    ...(node.process?.id ? { pid: node.process.id } : {}),
  };
}

/** Turns the shard request cache (which serves repeated size-0 searches: statistics) on or off for an index. */
export async function setRequestCache(target: EsTarget, index: string, enabled: boolean): Promise<void> {
  await esRequest(
    target,
    'PUT',
    `/${encodeURIComponent(index)}/_settings`,
    JSON.stringify({ index: { requests: { cache: { enable: enabled } } } }),
  );
  await esRequest(target, 'POST', `/${encodeURIComponent(index)}/_cache/clear?request=true`);
}

/** The HTTP port the node ES_URL reaches publishes (`_nodes/_local/http`), when it says (for --cpu-split). */
export async function localNodeHttpPort(target: EsTarget): Promise<number | undefined> {
  const response = await esRequest<{ nodes?: Record<string, { http?: { publish_address?: string } }> }>(
    target,
    'GET',
    '/_nodes/_local/http?filter_path=nodes.*.http.publish_address',
  );
  const address = Object.values(response.nodes ?? {})[0]?.http?.publish_address;
  const port = address === undefined ? undefined : /:(\d+)$/.exec(address)?.[1];
  return port === undefined ? undefined : Number(port);
}
