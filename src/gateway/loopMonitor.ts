// How busy this process's own event loop is: the delay a callback waits before it runs (how late a timer of
// RESOLUTION_MS fires) and the share of time the loop worked (performance.eventLoopUtilization), both over the
// last sampling interval. A plain timer, not perf_hooks' monitorEventLoopDelay: in one process, only the first of
// those histograms records a long delay, and prom-client's default metrics keep one of their own. Admission uses it twice: a search's time is measured without the delay its answer
// waited in this process (so a starved process does not read as a slow Elasticsearch), and the front door refuses
// searches while the process itself is the bottleneck (its callbacks wait too long), before they cost anything.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface LoopLoad {
  /** Mean delay of a callback over the last interval (ms). */
  delayMs(): number;
  /** The process is its own bottleneck: callbacks have waited longer than the front door allows, for a while. */
  saturated(): boolean;
}

/** The tick of the timer whose lateness is the delay. */
const RESOLUTION_MS = 10;

/** How often the loop's delay and utilization are read (and the histogram started anew). */
export const LOOP_SAMPLE_INTERVAL_MS = 100;

/**
 * The mean callback delay past which the front door refuses searches, when it lasts SATURATED_SAMPLES intervals in
 * a row. A search's answer then waits this long in the process on top of Elasticsearch's time, and a probe
 * (/health/live) as long: new searches would only add to it. Well above what a loop serving its own capacity
 * shows, so load the process serves in time is not refused; and only when it lasts, so that one long pause (a
 * garbage collection, a large answer) does not refuse what comes after it.
 */
export const SATURATED_DELAY_MS = 40;

/** Intervals in a row over SATURATED_DELAY_MS that make the loop saturated. */
export const SATURATED_SAMPLES = 3;

export class LoopMonitor implements LoopLoad {
  private utilizationMark: EventLoopUtilization = performance.eventLoopUtilization();
  private lastTick = performance.now();
  private windowStart = this.lastTick;
  private windowDelayMs = 0;
  private windowTicks = 0;
  private lastDelayMs = 0;
  private lastUtilization = 0;
  /** Intervals in a row whose mean delay was over the limit. */
  private overInARow = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly saturatedDelayMs = SATURATED_DELAY_MS) {
    this.timer = setInterval(() => this.tick(), RESOLUTION_MS).unref();
  }

  delayMs(): number {
    return this.lastDelayMs;
  }

  /** Share of the last interval the loop spent working (0–1). */
  utilization(): number {
    return this.lastUtilization;
  }

  saturated(): boolean {
    return this.overInARow >= SATURATED_SAMPLES;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** One tick of the timer: how late it came is the wait of any callback due then. */
  private tick(): void {
    const now = performance.now();
    this.windowDelayMs += Math.max(0, now - this.lastTick - RESOLUTION_MS);
    this.windowTicks += 1;
    this.lastTick = now;
    if (now - this.windowStart >= LOOP_SAMPLE_INTERVAL_MS) this.closeWindow(now);
  }

  private closeWindow(now: number): void {
    this.lastDelayMs = this.windowDelayMs / this.windowTicks;
    this.overInARow = this.lastDelayMs > this.saturatedDelayMs ? this.overInARow + 1 : 0;
    this.windowDelayMs = 0;
    this.windowTicks = 0;
    this.windowStart = now;
    const mark = performance.eventLoopUtilization();
    this.lastUtilization = performance.eventLoopUtilization(mark, this.utilizationMark).utilization;
    this.utilizationMark = mark;
  }
}

/**
 * A monitor of the process's loop, started now with `saturatedDelayMs` (ADMISSION_LOOP_DELAY_MS). The process has
 * one loop, so one monitor: the composition root (src/services.ts) keeps it.
 */
export function processLoopMonitor(saturatedDelayMs = SATURATED_DELAY_MS): LoopMonitor {
  return new LoopMonitor(saturatedDelayMs);
}
