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
    // The list takes every filter; the change log's since, the export's format, the roll-ups' and the
    // reconciliation services' are not its own.
    expect(Object.keys(unknownReasons(byId('listPpas'), OPERATIONS)).sort()).to.deep.equal([
      'extend',
      'format',
      'group_by',
      'group_limit',
      'group_sort',
      'id',
      'limit',
      'prefix',
      'queries',
      'role',
      'since',
      'type',
      'type_strict',
    ]);
  });

  it('routes every operation once, in the order of the list, and POST only where an operation takes a form', () => {
    const router = operationsRouter(OPERATIONS, operationDeps({ search: {} as SearchGateway }));
    const gets = router.stack.filter((layer) => layer.methods.includes('GET')).map((layer) => layer.path);
    expect(gets).to.deep.equal(OPERATIONS.map((operation) => routePath(operation.path)));
    const posts = router.stack.filter((layer) => layer.methods.includes('POST')).map((layer) => layer.path);
    expect(posts).to.deep.equal(['/api/v1/reconcile/ppas', '/api/v1/reconcile/parties']);
    expect(router.stack.length).to.equal(gets.length + posts.length);
  });
});
