// Overload refusals are counted, not logged one by one: at ten times capacity a JSON line for each would cost the
// instance more than the refusal itself. One line every interval says how many requests were refused, by route.
import type { Context } from 'koa';
import type { Logger } from 'pino';

/** How often the count of refusals is logged (when there were any). */
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** Marks a request refused for overload (its request line is not logged; the count says it). */
export function markOverloaded(ctx: Context): void {
  ctx.state.overloaded = true;
}

export function wasOverloaded(ctx: Context): boolean {
  return ctx.state.overloaded === true;
}

/** The route template a request matched (e.g. /api/v1/ppas/:slug), never its raw path. */
export function routeOf(ctx: Context): string {
  return matchedRouteOf(ctx) ?? 'unmatched';
}

/** The route template a request matched, undefined when no route did. */
export function matchedRouteOf(ctx: Context): string | undefined {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return route === undefined || route === null ? undefined : String(route);
}

export class RefusalLog {
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = REFUSAL_LOG_INTERVAL_MS,
  ) {}

  count(route: string): void {
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
    // The first refusal of an interval starts its clock; a quiet instance has no timer.
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs).unref();
  }

  /** Logs what was counted since the last line, if anything. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size === 0) return;
    const byRoute = Object.fromEntries(this.counts);
    const refused = [...this.counts.values()].reduce((sum, count) => sum + count, 0);
    this.counts.clear();
    this.logger.warn(
      { refused, by_route: byRoute, interval_s: this.intervalMs / 1000 },
      'requests refused: overloaded (not run)',
    );
  }
}
