// What --help prints after the options of the program and of each command: the exit codes (from their table,
// exitCodes.ts), what every failure ends with, and the environment.
import { CHANGE_LOG_VARIABLES_SPEC } from '../../settings/changeLog.js';
import { exitCodeHelp } from '../exitCodes.js';

const retention = CHANGE_LOG_VARIABLES_SPEC.CHANGES_RETENTION_DAYS;

export const AFTER_OPTIONS_HELP = `
${exitCodeHelp()}

Every failure ends with one sentence on stderr: what failed, what it means for the live alias, what to do next.

Environment: DATABASE_URL (the default --source of reindex and sync), ES_URL (comma-separated nodes), ES_API_KEY or ES_USERNAME + ES_PASSWORD,
ES_INDEX (default alias "ppas"), ES_REQUEST_TIMEOUT_MS (default 60000), LOG_LEVEL (default info; debug adds stack traces),
CHANGES_RETENTION_DAYS (default ${retention.default}: ${retention.meaning}).`;
