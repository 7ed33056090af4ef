// The list of operations: each declared once (path, operationId), the router's order puts the literal segments
// under /ppas before /ppas/{slug}, and every /api/v1 operation reads its query from a declaration.
import { expect } from 'chai';
import { API_PATHS, isApiPath, RECONCILE_PATHS } from '../../../../src/http/apiPath.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';

describe('api operations: the list', () => {
  it('declares each path and each operationId once, every /api/v1 path from API_PATHS', () => {
    const paths = OPERATIONS.map((operation) => operation.path);
    const ids = OPERATIONS.map((operation) => operation.doc.operationId);
    expect(new Set(paths).size).to.equal(paths.length);
    expect(new Set(ids).size).to.equal(ids.length);
    const declared = new Set<string>([
      ...Object.values(API_PATHS),
      ...Object.values(RECONCILE_PATHS).flatMap((paths) => Object.values(paths)),
    ]);
    for (const path of paths.filter(isApiPath)) expect(declared.has(path), path).to.equal(true);
  });

  it('routes the literal segments under /ppas before /ppas/{slug}', () => {
    const paths = OPERATIONS.map((operation) => operation.path);
    const slug = paths.indexOf(API_PATHS.ppa);
    for (const literal of [
      API_PATHS.statistics,
      API_PATHS.export,
      API_PATHS.changes,
      API_PATHS.feed,
      API_PATHS.suggest,
    ]) {
      expect(paths.indexOf(literal), literal).to.be.within(0, slug - 1);
    }
  });

  it('parses the query of every /api/v1 operation; the health checks do not read it', () => {
    for (const operation of OPERATIONS) {
      expect(operation.query !== undefined, operation.path).to.equal(isApiPath(operation.path));
    }
  });
});
