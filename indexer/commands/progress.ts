// Shows reindex progress on stderr: a cli-progress bar on a terminal, else one JSON line every few seconds
// (log collectors read lines, not carriage returns).
import { Presets, SingleBar } from 'cli-progress';
import type { ProgressEvent } from '../reindex/reindex.js';

export interface ProgressReporter {
  onProgress: (event: ProgressEvent) => void;
  stop: () => void;
}

export function createProgressReporter(
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = 2000,
): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : jsonLineReporter(stream, intervalMs);
}

function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let bar: SingleBar | null = null;
  let phase: ProgressEvent['phase'] | null = null;
  const stop = (): void => {
    bar?.stop();
    bar = null;
  };
  return {
    onProgress(event) {
      if (event.phase !== phase) {
        stop();
        phase = event.phase;
        const format =
          event.phase === 'validate'
            ? 'validate |{bar}| {percentage}% | {records} records read'
            : 'load     |{bar}| {percentage}% | {value}/{total} documents | {eta_formatted} left';
        bar = new SingleBar({ format, stream, hideCursor: true }, Presets.shades_classic);
        bar.start(event.phase === 'validate' ? event.totalBytes : event.total, 0, { records: 0 });
      }
      if (event.phase === 'validate') bar?.update(event.bytes, { records: event.records });
      else bar?.update(event.indexed);
    },
    stop,
  };
}

function jsonLineReporter(stream: NodeJS.WriteStream, intervalMs: number): ProgressReporter {
  let lastWritten = 0;
  let lastPhase: ProgressEvent['phase'] | null = null;
  return {
    onProgress(event) {
      const now = Date.now();
      // Always report a phase's start, then at most once per interval.
      if (event.phase === lastPhase && now - lastWritten < intervalMs) return;
      lastPhase = event.phase;
      lastWritten = now;
      stream.write(`${JSON.stringify({ progress: event, time: new Date(now).toISOString() })}\n`);
    },
    stop: () => undefined,
  };
}
