// GET /api/v1/ocds/{file}: the project's OCDS extension (src/present/ocdsExtension.ts): extension.json and the
// schema patches it names, as OCDS tools fetch them beside it.
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import {
  extensionMetadata,
  extensionReleasePackageSchema,
  extensionReleaseSchema,
} from '../present/ocdsExtension.js';
import { Type } from '../wire/bodySchema.js';
import { operation } from './operation.js';

/** Each file by name; extension.json names the documentation by absolute URL. */
const FILES: Readonly<Record<string, (base: string) => Record<string, unknown>>> = {
  'extension.json': extensionMetadata,
  'release-schema.json': extensionReleaseSchema,
  'release-package-schema.json': extensionReleasePackageSchema,
};

const OcdsExtensionFileSchema = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description:
    'extension.json (OCDS extension metadata) or a JSON Merge Patch of an OCDS schema, in OCDS’s extension format.',
});

export const ocdsExtensionFile = operation({
  path: API_PATHS.ocdsExtensionFile,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'ocdsExtensionFile',
    tags: ['ocds'],
    summary: 'The project’s OCDS extension: extension.json and the schema patches it names',
    description:
      'What a PPA has that core OCDS has no field for, as an OCDS extension: every package of the API lists ' +
      'extension.json in `extensions`, and OCDS tools (the Data Review Tool, Kingfisher, flatten-tool) fetch the ' +
      'files it names from beside it. Takes no query parameters (any is 400).',
    parameters: [
      {
        name: 'file',
        in: 'path',
        required: true,
        description: 'The file of the extension.',
        schema: { type: 'string', enum: Object.keys(FILES) },
      },
      ifNoneMatch,
      requestIdHeader,
    ],
    responses: apiResponses(
      { description: 'The file.', schema: 'OcdsExtensionFile' },
      { '400': badRequest, '404': problem('The extension has no such file.') },
    ),
  },
  schemas: { OcdsExtensionFile: OcdsExtensionFileSchema },
  withoutSearch: true,
  handler:
    () =>
    async ({ ctx, answer, base }) => {
      const name = ctx.params.file ?? '';
      const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
      if (!file) throw new NotFoundError();
      await answer(`${base} ${name}`, () => ({ body: file(base) }));
    },
});
