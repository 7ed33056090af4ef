// The indexer's environment variables as --help (help.ts) and docs/operations.md show them. Each default
// is read from the declaration the code itself reads it from (settings/elasticsearch.ts with the indexer's own
// ES_* defaults of elasticsearch/esClient.ts, settings/changeLog.ts, indexerLog.ts), so a default changes in one
// place; what a variable means is said here when the API's words would not fit a batch job.
import { CHANGE_LOG_VARIABLES_SPEC } from '../../settings/changeLog.js';
import { ES_VARIABLES_SPEC } from '../../settings/elasticsearch.js';
import { INDEXER_ES_DEFAULTS } from '../elasticsearch/esClient.js';
import { DEFAULT_LOG_LEVEL } from '../indexerLog.js';

export interface IndexerVariable {
  name: string;
  /** As the environment would spell it; absent: none. */
  default?: string;
  meaning: string;
}

/** The meanings of the ES_* variables where the declaration speaks of the API (its searches, its 503). */
const ES_MEANINGS_FOR_THE_INDEXER: Partial<Record<keyof typeof ES_VARIABLES_SPEC, string>> = {
  ES_URL: 'Elasticsearch node(s), comma-separated; a failed request is tried again on another',
  ES_INDEX: 'the alias the indexer builds and swaps; --alias overrides it',
  ES_REQUEST_TIMEOUT_MS: 'timeout of one request to Elasticsearch, in milliseconds',
};

function esVariables(): IndexerVariable[] {
  return Object.entries(ES_VARIABLES_SPEC).map(([key, spec]) => {
    const name = key as keyof typeof ES_VARIABLES_SPEC;
    const fallback = INDEXER_ES_DEFAULTS[name] ?? ('default' in spec ? spec.default : undefined);
    return {
      name,
      ...(fallback === undefined ? {} : { default: fallback }),
      meaning: ES_MEANINGS_FOR_THE_INDEXER[name] ?? spec.meaning,
    };
  });
}

/** Every variable the indexer reads, in the order --help lists them. */
export function indexerVariables(): IndexerVariable[] {
  const retention = CHANGE_LOG_VARIABLES_SPEC.CHANGES_RETENTION_DAYS;
  return [
    { name: 'DATABASE_URL', meaning: 'the default --source of reindex and sync (postgres://…)' },
    ...esVariables(),
    {
      name: 'CHANGES_RETENTION_DAYS',
      default: retention.default,
      meaning: `${retention.meaning}, in days, decimals allowed`,
    },
    { name: 'LOG_LEVEL', default: DEFAULT_LOG_LEVEL, meaning: 'the log level; debug adds stack traces' },
  ];
}
