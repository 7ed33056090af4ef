import { expect } from 'chai';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { markOverloaded, RefusalLog, routeOf, wasOverloaded } from '../../../../src/http/refusalLog.js';

/** A logger that keeps its warn lines. */
function warnings(): { logger: Logger; lines: [Record<string, unknown>, string][] } {
  const lines: [Record<string, unknown>, string][] = [];
  const logger = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push([fields, message]),
  };
  return { logger: logger as unknown as Logger, lines };
}

const contextOf = (fields: Record<string, unknown> = {}) => ({ state: {}, ...fields }) as unknown as Context;

describe('http/refusalLog: overload refusals counted, one line an interval', () => {
  it('logs one line with the count by route, then starts again from nothing', () => {
    const { logger, lines } = warnings();
    const log = new RefusalLog(logger, 60_000);
    log.count('/api/v1/ppas');
    log.count('/api/v1/ppas');
    log.count('/api/v1/ppas/:slug');
    log.flush();
    expect(lines).to.deep.equal([
      [
        { refused: 3, by_route: { '/api/v1/ppas': 2, '/api/v1/ppas/:slug': 1 }, interval_s: 60 },
        'requests refused: overloaded (not run)',
      ],
    ]);
    log.flush();
    expect(lines, 'nothing refused since: no line').to.have.length(1);
  });

  it('writes the line by itself once the interval after the first refusal has passed', async () => {
    const { logger, lines } = warnings();
    const log = new RefusalLog(logger, 20);
    log.count('/api/v1/ppas');
    expect(lines).to.have.length(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).to.have.length(1);
    expect(lines[0]?.[0]).to.include({ refused: 1 });
  });

  it('marks a request refused for overload on its state', () => {
    const ctx = contextOf();
    expect(wasOverloaded(ctx)).to.equal(false);
    markOverloaded(ctx);
    expect(wasOverloaded(ctx)).to.equal(true);
  });

  it('names a request by the route it matched, never by its raw path', () => {
    expect(routeOf(contextOf({ _matchedRoute: '/api/v1/ppas/:slug', path: '/api/v1/ppas/x' }))).to.equal(
      '/api/v1/ppas/:slug',
    );
    expect(routeOf(contextOf({ path: '/api/v1/ppas/x' }))).to.equal('unmatched');
  });
});
