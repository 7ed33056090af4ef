// docs/api.md is the human-readable reference of the API; the OpenAPI document is what the API serves. This keeps
// the two in step: every path and every query parameter the OpenAPI document lists is named in docs/api.md.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { buildOpenApiSpec } from '../../../src/openapi/spec.js';

const reference = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const spec = buildOpenApiSpec();

interface Parameter {
  name: string;
  in: string;
}

describe('docs/api.md against the OpenAPI document', () => {
  it('names every path', () => {
    for (const path of Object.keys(spec.paths)) {
      expect(reference, path).to.include(path.replace(/\{slug\}/, '{slug}'));
    }
  });

  it('names every query parameter of every operation', () => {
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const operation of Object.values(operations as Record<string, { parameters?: Parameter[] }>)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'query') continue;
          expect(reference, `${path} ${parameter.name}`).to.include(`\`${parameter.name}\``);
        }
      }
    }
  });
});
