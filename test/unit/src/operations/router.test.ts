import { expect } from 'chai';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { operationsRouter, routePath, unknownReasons } from '../../../../src/operations/router.js';
import type { SearchGateway } from '../../../../src/gateway/gateway.js';
import { operationDeps } from '../../../support/operationDeps.js';

const byId = (id: string) => {
  const found = OPERATIONS.find((operation) => operation.doc.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

describe('api operations: router', () => {
  it('turns path templates into router paths', () => {
    expect(routePath('/api/v1/ppas/{slug}')).to.equal('/api/v1/ppas/:slug');
    expect(routePath('/api/v1/ppas')).to.equal('/api/v1/ppas');
  });

  it("names where another operation's parameter does not belong, from the operations' own declarations", () => {
    const reasons = unknownReasons(byId('exportPpas'), OPERATIONS);
    expect(reasons.page).to.equal(
      'is not a parameter of GET /api/v1/ppas/export (an export is every match: no pages, cursor or facets)',
    );
    for (const name of ['per_page', 'cursor', 'facets', 'since', 'limit', 'slug', 'highlight']) {
      expect(reasons, name).to.have.property(name);
    }
    // What the export takes is never refused as another's, aliases included.
    for (const name of ['q', 'sort', 'fields', 'format', 'risk_features', 'risk_features[]']) {
      expect(reasons, name).to.not.have.property(name);
    }
    expect(unknownReasons(byId('getPpa'), OPERATIONS).q).to.equal(
      'is not a parameter of GET /api/v1/ppas/{slug} (it takes none)',
    );
    // The list takes every filter; the change log's since, the export's format and the roll-ups' are not its own.
    expect(Object.keys(unknownReasons(byId('listPpas'), OPERATIONS)).sort()).to.deep.equal([
      'format',
      'group_by',
      'group_limit',
      'group_sort',
      'limit',
      'role',
      'since',
    ]);
  });

  it('routes every operation once, in the order of the list', () => {
    const router = operationsRouter(OPERATIONS, operationDeps({ search: {} as SearchGateway }));
    const paths = router.stack.map((layer) => layer.path);
    expect(paths).to.deep.equal(OPERATIONS.map((operation) => routePath(operation.path)));
  });
});
