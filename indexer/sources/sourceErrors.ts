// A source that cannot be opened: a file that is missing, unreadable or a directory, a PostgreSQL database that
// cannot be reached or read. All exit 2, with usage errors: the command line or the source has to change, and
// nothing was read or written.
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';

export class SourceError extends IndexerError {
  override readonly exitCode = EXIT_CODES.usage;
  constructor(
    message: string,
    override readonly hint: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

const CHECK_PATH = 'check the path given to --source';

/** A source file's failure to open or read, by its errno code. */
export function fileSourceError(path: string, error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const source = `the source ${JSON.stringify(path)}`;
  const options = { cause: error };
  switch (code) {
    case 'ENOENT':
      return new SourceError(`${source} does not exist`, CHECK_PATH, options);
    case 'EACCES':
    case 'EPERM':
      return new SourceError(
        `${source} cannot be read (permission denied)`,
        'make it readable by the user that runs the indexer, or pass it on standard input (--source -)',
        options,
      );
    case 'EISDIR':
      return directoryError(source, options);
    case 'ENOTDIR':
      return new SourceError(`${source} has a file where its path needs a directory`, CHECK_PATH, options);
    default:
      return new SourceError(
        `${source} cannot be read (${error instanceof Error ? error.message : String(error)})`,
        CHECK_PATH,
        options,
      );
  }
}

function directoryError(source: string, options: { cause: unknown }): SourceError {
  return new SourceError(
    `${source} is a directory, not a file`,
    'name the NDJSON or JSON array file itself with --source',
    options,
  );
}

/** The source file's stat, once it is known to be there and not a directory. */
export async function statSourceFile(path: string): Promise<Stats> {
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    throw fileSourceError(path, error);
  }
  if (stats.isDirectory()) throw directoryError(`the source ${JSON.stringify(path)}`, { cause: null });
  return stats;
}

/** host:port/database of a PostgreSQL URL: enough to recognise it, with no user or password. */
function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'of --source';
  }
}

/** PostgreSQL refused the connection, the login or the relation. */
export function postgresSourceError(url: string, error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SourceError(
    `the PostgreSQL source ${describePostgresUrl(url)} cannot be read (${detail})`,
    'check --source (or DATABASE_URL), that PostgreSQL answers, and --relation',
    { cause: error },
  );
}
