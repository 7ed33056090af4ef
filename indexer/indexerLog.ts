// The indexer's log on stderr: pino JSON lines for machines (the default when stderr is not a terminal), or the
// same entries as short text lines for a person at a terminal (--log-format text, the default there). Either way
// stack traces are logged only at LOG_LEVEL=debug: an operator needs what failed, not where in the code.
import { pino, type Logger } from 'pino';
import { terminalSafe } from './terminalText.js';

/** What the indexer's modules log through (a pino logger, or a silent stand-in). */
export type IndexerLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

/** The log level when LOG_LEVEL is unset (--help shows it: indexer/commands/environment.ts). */
export const DEFAULT_LOG_LEVEL = 'info';

export const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Text for a person at a terminal, JSON lines for whatever reads a pipe or a file. */
export function defaultLogFormat(stream: { isTTY?: boolean } = process.stderr): LogFormat {
  return stream.isTTY ? 'text' : 'json';
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino's own fields, shown otherwise (time, level, message) or not at all. */
const BOOKKEEPING: ReadonlySet<string> = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

function textValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/**
 * One pino JSON line as text: `12:00:01 WARN  skipped: line 7 … slug="x" problems=[…]`, terminal-safe, with an
 * error's stack (present only at debug) on the lines after it.
 */
export function textLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  let stack = '';
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (BOOKKEEPING.has(key)) continue;
    if (key === 'err' && value && typeof value === 'object') {
      const err = value as { message?: string; stack?: string };
      fields.push(`err=${textValue(err.message ?? '')}`);
      if (err.stack) stack = `\n${err.stack}`;
    } else fields.push(`${key}=${textValue(value)}`);
  }
  const message = [time, level, entry.msg ?? '', ...fields].filter((part) => part !== '').join(' ');
  return `${terminalSafe(message)}${stack}\n`;
}

/** An error as a log field: its type and message, and its stack only at debug. */
function errorSerializer(withStack: boolean): (error: Error) => Record<string, unknown> {
  return (error) => {
    const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
    if (withStack) return serialized;
    const { stack: _stack, ...rest } = serialized;
    return rest;
  };
}

export function isDebug(level: string): boolean {
  return level === 'debug' || level === 'trace';
}

/** The log at `level` (LOG_LEVEL); text goes to `textStream` (stderr, or a test's), JSON lines to fd 2. */
export function createIndexerLogger(
  format: LogFormat,
  level: string = process.env.LOG_LEVEL ?? DEFAULT_LOG_LEVEL,
  textStream: { write: (text: string) => unknown } = process.stderr,
): Logger {
  const options = {
    name: 'ppa-indexer',
    level,
    serializers: { err: errorSerializer(isDebug(level)) },
  };
  // Both destinations write synchronously, so the log and the closing sentence reach stderr in order.
  if (format === 'text')
    return pino(options, { write: (line: string) => void textStream.write(textLogLine(line)) });
  return pino(options, pino.destination({ fd: 2, sync: true }));
}
