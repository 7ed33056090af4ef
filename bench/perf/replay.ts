// Elasticsearch's answers recorded on first ask and replayed after (bench/floor.ts --replay): the Node sides then
// spend CPU only on their own work, so what the API adds over the floor shows at about ±0.02 ms per request
// instead of the ±15 % the shared cores give a run against the live cluster. Each answer is kept as the text the
// client received and parsed again on every replay, as the client would. For attributing CPU only: never a ratio
// against Elasticsearch, never a test.
import type { DocumentLookup, SearchGateway, SearchRequestBody } from '../../src/gateway/gateway.js';

/** `ask`, answered from a recording once it has been asked the same request (by its JSON) before. */
export function replaying<Request, Answer>(
  ask: (request: Request) => Promise<Answer>,
): (request: Request) => Promise<Answer> {
  const recorded = new Map<string, string>();
  return async (request) => {
    const key = JSON.stringify(request);
    let text = recorded.get(key);
    if (text === undefined) {
      text = JSON.stringify(await ask(request));
      recorded.set(key, text);
    }
    return JSON.parse(text) as Answer;
  };
}

/** The gateway with its searches replayed (readiness and the live generation are the live state's: src/liveState/). */
export function replayingGateway(live: SearchGateway): SearchGateway {
  const search = replaying((body: SearchRequestBody) => live.search(body));
  const msearch = replaying((bodies: readonly SearchRequestBody[]) => live.msearch(bodies));
  const searchChangeLog = replaying((body: SearchRequestBody) => live.searchChangeLog(body));
  const getDocument = replaying((lookup: DocumentLookup) => live.getDocument(lookup));
  const searchParties = replaying((body: SearchRequestBody) => live.searchParties(body));
  return {
    searchParties: searchParties as SearchGateway['searchParties'],
    getDocument: getDocument as SearchGateway['getDocument'],
    searchChangeLog: searchChangeLog as SearchGateway['searchChangeLog'],
    search: search as SearchGateway['search'],
    msearch: msearch as SearchGateway['msearch'],
    close: () => live.close(),
  };
}
