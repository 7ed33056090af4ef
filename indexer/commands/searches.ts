// ppa-indexer searches --zero-results: what people searched for and did not find, as the API instances counted it
// in their shared Redis (REDIS_URL), by the privacy rule of settings/zeroResults.ts.
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_ZERO_RESULTS_RETENTION_DAYS, MAX_QUERIES_PER_DAY } from '../../settings/zeroResults.js';
import { UsageError } from '../errors.js';
import { positiveInteger } from '../optionParsers.js';
import { describeZeroResults, zeroResultsJson, zeroResultsReport } from '../searchLog/zeroResultsReport.js';
import { AFTER_OPTIONS_HELP } from './help.js';

/** `--since`: a number of days back, today included ("7d"). */
export function sinceDays(value: string): number {
  const match = /^([1-9]\d*)d$/.exec(value);
  const days = match ? Number(match[1]) : NaN;
  if (!(days <= MAX_ZERO_RESULTS_RETENTION_DAYS)) {
    throw new InvalidArgumentError(
      `expected a number of days with d, from 1d to ${MAX_ZERO_RESULTS_RETENTION_DAYS}d (as 7d)`,
    );
  }
  return days;
}

function limit(value: string): number {
  const number = positiveInteger(value);
  if (number > MAX_QUERIES_PER_DAY) throw new InvalidArgumentError(`expected at most ${MAX_QUERIES_PER_DAY}`);
  return number;
}

interface SearchesOptions {
  zeroResults?: boolean;
  since: number;
  limit: number;
  json: boolean;
  api?: string;
}

export function addSearchesCommand(program: Command): void {
  program
    .command('searches')
    .description(
      'report what people searched for on the API and did not find (REDIS_URL: the API instances’ Redis)',
    )
    .option('--zero-results', 'the searches that found nothing (the only report so far)')
    .option('--since <days>', 'how far back, today included (as 7d)', sinceDays, 7)
    .option('--limit <n>', `the most searched queries shown, at most ${MAX_QUERIES_PER_DAY}`, limit, 50)
    .option('--api <url>', 'the API to try each query on now (default: PUBLIC_BASE_URL); none: not tried')
    .option('--json', 'print JSON instead of text', false)
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action(async (options: SearchesOptions) => {
      if (!options.zeroResults) throw new UsageError('name the report: --zero-results');
      const redisUrl = process.env.REDIS_URL?.trim();
      if (!redisUrl) {
        throw new UsageError(
          'REDIS_URL is not set: the API instances count the searches that found nothing in their Redis (without it, each counts its own in memory, which no command can read)',
        );
      }
      const apiUrl = options.api ?? (process.env.PUBLIC_BASE_URL?.trim() || undefined);
      const report = await zeroResultsReport({
        redisUrl,
        days: options.since,
        limit: options.limit,
        ...(apiUrl ? { apiUrl } : {}),
      });
      process.stdout.write(
        `${options.json ? JSON.stringify(zeroResultsJson(report)) : describeZeroResults(report)}\n`,
      );
    });
}
