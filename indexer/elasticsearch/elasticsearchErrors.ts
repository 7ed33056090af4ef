// Elasticsearch's failures in an operator's words: which URL (ES_URL) could not be reached or refused, why, in one
// line, and what to check. The client's own messages span lines and name no node when a connection fails.
import { errors } from '@elastic/elasticsearch';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';

export class ElasticsearchError extends IndexerError {
  override readonly exitCode = EXIT_CODES.failure;
  constructor(
    message: string,
    override readonly hint: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

const CHECK_URL = 'check ES_URL and that Elasticsearch is running, then run again';
const CHECK_CREDENTIALS =
  'check ES_API_KEY (or ES_USERNAME and ES_PASSWORD) and the privileges the indexer needs ' +
  '(docs/operations.md, "A managed Elasticsearch cluster"), then run again';

/** `type: reason` of an error answer, on one line. */
function reasonOf(error: errors.ResponseError): string {
  const body = error.meta.body as
    { error?: { type?: string; reason?: string } | string } | string | undefined;
  const answer = typeof body === 'object' ? body.error : body;
  const reason =
    typeof answer === 'object' ? [answer.type, answer.reason].filter(Boolean).join(': ') : (answer ?? '');
  return reason || error.message;
}

/** The client's error as an ElasticsearchError naming `nodes`, or null for an error that is not the client's. */
export function elasticsearchFailure(error: unknown, nodes: readonly string[]): ElasticsearchError | null {
  if (error instanceof ElasticsearchError) return error;
  const where = `Elasticsearch at ${nodes.join(', ')}`;
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return new ElasticsearchError(`${where} cannot be reached (${error.message})`, CHECK_URL, {
      cause: error,
    });
  }
  if (error instanceof errors.TimeoutError) {
    return new ElasticsearchError(`${where} did not answer in time (${error.message})`, CHECK_URL, {
      cause: error,
    });
  }
  if (error instanceof errors.ResponseError) {
    const status = error.meta.statusCode ?? 0;
    const refusal = `${where} refused a request: ${status} ${reasonOf(error)}`;
    const hint =
      status === 401 || status === 403
        ? CHECK_CREDENTIALS
        : "look at the reason given and at Elasticsearch's own log, then run again";
    return new ElasticsearchError(refusal, hint, { cause: error });
  }
  if (error instanceof errors.ElasticsearchClientError) {
    return new ElasticsearchError(`${where}: ${error.message}`, CHECK_URL, { cause: error });
  }
  return null;
}
