// Before any load: every request of the mix is sent once to each side and the answers must agree (the API
// answers 200 and reports the same total as the raw `_search` with the body the benchmark built). A mismatch
// means the two sides would not be measuring the same work, or the API is broken: either way the run fails.
import { clientHeadersFor, type EsTarget } from './rawElasticsearch.js';
import type { MixRequest } from './requestMix.js';

interface RawAnswer {
  hits: { total?: { value: number }; hits: unknown[] };
}

interface ApiAnswer {
  meta?: { total?: number };
  data?: { totals?: { ppas?: number } } | unknown[];
}

export interface Mismatch {
  request: MixRequest;
  problem: string;
}

async function check(
  request: MixRequest,
  apiUrl: string,
  es: EsTarget,
  alias: string,
): Promise<{ problem?: string; total?: number }> {
  const [api, raw] = await Promise.all([
    fetch(`${apiUrl}${request.apiPath}`, { signal: AbortSignal.timeout(30_000) }),
    fetch(`${es.url}/${alias}/${request.esEndpoint}`, {
      method: request.esMethod ?? 'POST',
      headers: { ...es.headers, ...clientHeadersFor(request.esEndpoint) },
      ...(request.esMethod === 'GET' ? {} : { body: request.esBody }),
      signal: AbortSignal.timeout(30_000),
    }),
  ]);
  const [apiText, rawText] = await Promise.all([api.text(), raw.text()]);
  if (request.kind === 'detail') {
    // A get: 200 with the document, or 404 with found false.
    const found = raw.status === 200 && (JSON.parse(rawText) as { found?: boolean }).found === true;
    if (!found && raw.status !== 404)
      return { problem: `raw get answered ${raw.status}: ${rawText.slice(0, 300)}` };
    const expected = found ? 200 : 404;
    return api.status === expected
      ? { total: found ? 1 : 0 }
      : { problem: `API answered ${api.status}, raw ${found ? 'found' : 'did not find'} it` };
  }
  if (raw.status !== 200) return { problem: `raw _search answered ${raw.status}: ${rawText.slice(0, 300)}` };
  // An _msearch: the page's search comes first (the facet counts follow).
  const rawAnswer = JSON.parse(rawText) as RawAnswer | { responses: RawAnswer[] };
  const rawBody = 'responses' in rawAnswer ? rawAnswer.responses[0]! : rawAnswer;
  if (api.status !== 200) return { problem: `API answered ${api.status}: ${apiText.slice(0, 300)}` };
  const apiBody = JSON.parse(apiText) as ApiAnswer;
  const apiTotal =
    request.kind === 'statistics'
      ? (apiBody.data as { totals?: { ppas?: number } } | undefined)?.totals?.ppas
      : apiBody.meta?.total;
  const rawTotal = rawBody.hits.total?.value;
  return apiTotal === rawTotal
    ? { total: rawTotal }
    : { problem: `API total ${apiTotal}, raw total ${rawTotal}` };
}

/**
 * Checks up to `limit` requests of the mix (the first ones: the mix is shuffled), a few at a time. `empty` counts
 * the requests that matched nothing (a mix of empty answers would measure little).
 */
export async function verifyMix(
  mix: MixRequest[],
  apiUrl: string,
  es: EsTarget,
  alias: string,
  limit: number,
): Promise<{ checked: number; mismatches: Mismatch[]; empty: number }> {
  const requests = mix.slice(0, limit);
  const mismatches: Mismatch[] = [];
  let empty = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const { problem, total } = await check(request, apiUrl, es, alias).catch((error: unknown) => ({
        problem: error instanceof Error ? error.message : String(error),
        total: undefined,
      }));
      if (problem) mismatches.push({ request, problem });
      else if (total === 0) empty++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { checked: requests.length, mismatches, empty };
}
