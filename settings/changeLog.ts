// CHANGES_RETENTION_DAYS: how long the change log keeps its events. The indexer reads it (the log's one writer
// prunes what is older); declared here, beside the ES_* variables, so that it is read and validated the same way
// and the help text is written from the declaration.
import { DEFAULT_RETENTION_DAYS } from '../indexContract/changeLog.js';
import { ConfigError, createVariablesReader, expectedOf, type VariableSpec } from './variables.js';

/** More than a century is a typo, not a retention. */
const MAX_RETENTION_DAYS = 36_500;

export const CHANGE_LOG_VARIABLES_SPEC = {
  CHANGES_RETENTION_DAYS: {
    expected: 'a number of days above 0',
    default: String(DEFAULT_RETENTION_DAYS),
    meaning: 'how long the change log keeps events',
    // Days, decimals allowed (a test may keep minutes); the range is checked once the text is a number.
    schema: { type: 'string', pattern: '^\\d+(?:\\.\\d+)?$' },
  },
} as const satisfies Record<string, VariableSpec>;

const readVariables = createVariablesReader(CHANGE_LOG_VARIABLES_SPEC);

export interface ChangeLogSettings {
  retentionDays: number;
}

/** The change log's settings; throws a ConfigError (the CLI's usage exit) for a bad value. */
export function readChangeLogSettings(env: Readonly<Record<string, string | undefined>>): ChangeLogSettings {
  const raw = readVariables(env).CHANGES_RETENTION_DAYS as string;
  const days = Number(raw);
  if (!(days > 0) || days > MAX_RETENTION_DAYS) {
    const entry = CHANGE_LOG_VARIABLES_SPEC.CHANGES_RETENTION_DAYS;
    throw new ConfigError([
      {
        variable: 'CHANGES_RETENTION_DAYS',
        message: `CHANGES_RETENTION_DAYS must be ${expectedOf(entry)} (got ${JSON.stringify(raw)})`,
      },
    ]);
  }
  return { retentionDays: days };
}
