// The indexer's environment variables as a markdown table in docs/operations.md, generated from the same list
// --help prints (indexer/commands/environment.ts), whose defaults are the ones the indexer reads.
import { indexerVariables } from '../../indexer/commands/environment.js';
import { variablesTable } from './environment.js';
import type { GeneratedSection } from './section.js';

export const INDEXER_ENVIRONMENT_SECTION: GeneratedSection = {
  name: 'indexer-environment',
  source: 'indexer/commands/environment.ts',
  documents: ['docs/operations.md'],
  text: () => variablesTable(indexerVariables()),
};
