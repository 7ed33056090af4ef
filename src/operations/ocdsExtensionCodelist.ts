// GET /api/v1/ocds/codelists/{file}: the codes the project's OCDS extension adds to a core codelist
// (+documentType.csv), where OCDS tools look for the codelists extension.json names.
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import {
  apiResponses,
  badRequest,
  EVERY_ANSWER,
  headerRefs,
  ifNoneMatch,
  problem,
  RATE_LIMIT_HEADERS,
  requestIdHeader,
} from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { CSV_MEDIA_TYPE } from '../present/groupsCsv.js';
import { addedDocumentTypesCsv, EXTENSION_CODELIST_FILES } from '../present/ocdsExtension.js';
import { fileRepresentation } from '../wire/representation.js';
import { operation } from './operation.js';

const CODELISTS: Readonly<Record<string, () => string>> = { '+documentType.csv': addedDocumentTypesCsv };

export const ocdsExtensionCodelist = operation({
  path: API_PATHS.ocdsExtensionCodelist,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'ocdsExtensionCodelist',
    tags: ['ocds'],
    summary: 'The codes the project’s OCDS extension adds to a core codelist',
    description:
      'CSV with the columns of the core codelist (Category, Section, Code, Title, Description): the documentType ' +
      'codes the source uses that OCDS 1.1.5 lacks. Takes no query parameters (any is 400).',
    parameters: [
      {
        name: 'file',
        in: 'path',
        required: true,
        description: 'The codelist file, as extension.json names it.',
        schema: { type: 'string', enum: [...EXTENSION_CODELIST_FILES] },
      },
      ifNoneMatch,
      requestIdHeader,
    ],
    responses: {
      ...apiResponses(
        { description: '', schema: 'OcdsExtensionFile' },
        { '400': badRequest, '404': problem('The extension adds no such codelist.') },
      ),
      '200': {
        description: 'The codelist additions as CSV.',
        headers: headerRefs([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, 'ETag', 'Cache-Control']),
        content: {
          'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
        },
      },
    },
  },
  withoutSearch: true,
  handler:
    () =>
    async ({ ctx, answer }) => {
      const name = ctx.params.file ?? '';
      const codelist = Object.hasOwn(CODELISTS, name) ? CODELISTS[name] : undefined;
      if (!codelist) throw new NotFoundError();
      await answer(name, () => fileRepresentation(Buffer.from(codelist()), CSV_MEDIA_TYPE));
    },
});
