// Load that arrives as independent users do: requests sent at a fixed rate whatever the answers (open loop). A
// closed loop (wrk, autocannon: each connection waits for its answer before the next request) slows its own
// arrivals when the server slows, and so hides a collapse. Each request gets its own deadline: one without an
// answer by then is counted as left unanswered. Also a closed loop, for the capacity the open loop is scaled to.
import http from 'node:http';

export interface Outcomes {
  /** Requests sent. */
  sent: number;
  /** 2xx and 304 answers. */
  answered: number;
  /** 503 with the overload problem type (refused at once, not run). */
  refused: number;
  /** Any other answer (the outage 503, 5xx, 429) or a connection error. */
  failed: number;
  /** No answer within the deadline. */
  unanswered: number;
  /** Milliseconds of each answered request, unsorted. */
  answerMs: number[];
  refusalMs: number[];
  failureMs: number[];
  /** Wall-clock seconds from the first request sent to the end of sending. */
  seconds: number;
}

const OVERLOADED = /overloaded/;

function emptyOutcomes(): Outcomes {
  return {
    sent: 0,
    answered: 0,
    refused: 0,
    failed: 0,
    unanswered: 0,
    answerMs: [],
    refusalMs: [],
    failureMs: [],
    seconds: 0,
  };
}

/** One GET; settles with what became of it (never rejects). */
function fetchOnce(
  agent: http.Agent,
  base: URL,
  path: string,
  deadlineMs: number,
  into: Outcomes,
): Promise<void> {
  const started = performance.now();
  into.sent++;
  return new Promise((resolve) => {
    let done = false;
    const finish = (kind: 'answered' | 'refused' | 'failed' | 'unanswered') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const ms = performance.now() - started;
      into[kind]++;
      if (kind === 'answered') into.answerMs.push(ms);
      else if (kind === 'refused') into.refusalMs.push(ms);
      else if (kind === 'failed') into.failureMs.push(ms);
      resolve();
    };
    const request = http.get(
      { agent, host: base.hostname, port: base.port, path, headers: { 'accept-encoding': 'gzip' } },
      (response) => {
        const status = response.statusCode ?? 0;
        let body = '';
        if (status === 503) response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        else response.resume();
        response.on('end', () => {
          if (status < 400) finish('answered');
          else if (status === 503 && OVERLOADED.test(body)) finish('refused');
          else finish('failed');
        });
        response.on('error', () => finish('failed'));
      },
    );
    request.on('error', () => finish('failed'));
    const timer = setTimeout(() => {
      finish('unanswered');
      request.destroy();
    }, deadlineMs);
  });
}

/**
 * Sends `paths` (in turn, spread over `bases` round robin: instances behind a balancer) at `ratePerSecond` for
 * `seconds`, each with its own deadline; resolves when every request has an outcome.
 */
export async function runOpenLoop(options: {
  bases: string[];
  paths: string[];
  ratePerSecond: number;
  seconds: number;
  deadlineMs: number;
}): Promise<Outcomes> {
  const bases = options.bases.map((base) => new URL(base));
  // No limit on sockets: an open loop opens a connection for each request the server has not answered yet.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  const outcomes = emptyOutcomes();
  const pending: Promise<void>[] = [];
  const total = Math.round(options.ratePerSecond * options.seconds);
  const started = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    // A 1 ms tick sends every request that is due: the arrivals keep their rate whatever the answers.
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * options.ratePerSecond) / 1000));
      for (; next < due; next++) {
        const base = bases[next % bases.length]!;
        const path = options.paths[next % options.paths.length]!;
        pending.push(fetchOnce(agent, base, path, options.deadlineMs, outcomes));
      }
      if (next >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  outcomes.seconds = (performance.now() - started) / 1000;
  await Promise.all(pending);
  agent.destroy();
  return outcomes;
}

/** `connections` clients, each sending its next request when the last is answered, for `seconds`. */
export async function runClosedLoop(options: {
  bases: string[];
  paths: string[];
  connections: number;
  seconds: number;
  deadlineMs: number;
}): Promise<Outcomes> {
  const bases = options.bases.map((base) => new URL(base));
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const outcomes = emptyOutcomes();
  const started = performance.now();
  const ends = started + options.seconds * 1000;
  let next = 0;
  const client = async () => {
    while (performance.now() < ends) {
      const index = next++;
      await fetchOnce(
        agent,
        bases[index % bases.length]!,
        options.paths[index % options.paths.length]!,
        options.deadlineMs,
        outcomes,
      );
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  outcomes.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return outcomes;
}

/** The q-th quantile of unsorted values (ms), NaN when there are none. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
