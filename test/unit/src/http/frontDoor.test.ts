import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { frontDoor, searchRoute, type FrontDoorOptions } from '../../../../src/http/frontDoor.js';
import { OVERLOADED_PROBLEM_TYPE } from '../../../../src/http/problem.js';

const ROUTES = [
  searchRoute('/api/v1/ppas', '/api/v1/ppas'),
  searchRoute('/api/v1/ppas/{slug}', '/api/v1/ppas/:slug'),
  searchRoute('/api/v1/reconcile/ppas', '/api/v1/reconcile/ppas', true),
];

/** A server whose requests meet the door first; what passes it is answered 200 "app". */
async function behindDoor(options: Partial<FrontDoorOptions> & { shedding: () => boolean }) {
  const refused: [string, string][] = [];
  const door = frontDoor({
    admitsNow: () => !options.shedding(),
    searchRoutes: ROUTES,
    exposedHeaders: ['RateLimit'],
    refused: (route, method) => refused.push([route, method]),
    ...(options.holdsAnswer ? { holdsAnswer: options.holdsAnswer } : {}),
  });
  const server: Server = createServer((request, response) => {
    if (!door(request, response)) response.end('app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, refused, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('http/frontDoor: searches refused before any work while the instance sheds', () => {
  it('matches the search routes as the router does: any case, a trailing slash, a slug', () => {
    const matches = (path: string) => ROUTES.some((route) => route.pattern.test(path));
    expect(['/api/v1/ppas', '/API/V1/PPAS/', '/api/v1/ppas/kafue-gorge'].every(matches)).to.equal(true);
    expect(['/api/v1/ppasx', '/api/v1/ppas/a/b', '/health/live', '/'].some(matches)).to.equal(false);
  });

  it('lets everything through while admission admits; refuses searches, and only searches, while it sheds', async () => {
    let shedding = false;
    const door = await behindDoor({ shedding: () => shedding });
    try {
      expect(await (await fetch(`${door.base}/api/v1/ppas?q=solar`)).text()).to.equal('app');
      shedding = true;
      const refused = await fetch(`${door.base}/api/v1/ppas?q=solar`, { headers: { 'X-Request-Id': 'r-1' } });
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('x-request-id')).to.equal('r-1');
      expect(refused.headers.get('retry-after')).to.equal('2');
      expect(refused.headers.get('access-control-expose-headers')).to.include('RateLimit');
      expect(((await refused.json()) as { type: string }).type).to.equal(OVERLOADED_PROBLEM_TYPE);
      // A request id that is not safe to echo is replaced.
      const unsafe = await fetch(`${door.base}/api/v1/ppas/x`, { headers: { 'X-Request-Id': 'a b' } });
      expect(unsafe.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      await unsafe.arrayBuffer();
      for (const path of ['/health/live', '/', '/api/v1/openapi.json', '/api/v1/nothing/here']) {
        expect(await (await fetch(`${door.base}${path}`)).text(), path).to.equal('app');
      }
      expect(await (await fetch(`${door.base}/api/v1/ppas`, { method: 'OPTIONS' })).text()).to.equal('app');
      const head = await fetch(`${door.base}/api/v1/ppas?q=wind`, { method: 'HEAD' });
      expect([head.status, await head.text()]).to.deep.equal([503, '']);
      expect(door.refused).to.deep.equal([
        ['/api/v1/ppas', 'GET'],
        ['/api/v1/ppas/:slug', 'GET'],
        ['/api/v1/ppas', 'HEAD'],
      ]);
    } finally {
      await door.close();
    }
  });

  it('refuses a form POST where the route takes one (a reconciliation batch), and leaves other POSTs to the app', async () => {
    const door = await behindDoor({ shedding: () => true, holdsAnswer: () => true });
    try {
      const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      const batch = await fetch(`${door.base}/api/v1/reconcile/ppas`, { ...form, body: 'queries=%7B%7D' });
      expect([batch.status, ((await batch.json()) as { type: string }).type]).to.deep.equal([
        503,
        OVERLOADED_PROBLEM_TYPE,
      ]);
      const other = await fetch(`${door.base}/api/v1/ppas`, { ...form, body: 'q=solar' });
      expect([other.status, await other.text()]).to.deep.equal([200, 'app']);
      expect(door.refused).to.deep.equal([['/api/v1/reconcile/ppas', 'POST']]);
    } finally {
      await door.close();
    }
  });

  it('lets through a URL whose answer the response cache holds', async () => {
    const door = await behindDoor({
      shedding: () => true,
      holdsAnswer: (url) => url === '/api/v1/ppas?q=solar',
    });
    try {
      expect(await (await fetch(`${door.base}/api/v1/ppas?q=solar`)).text()).to.equal('app');
      const other = await fetch(`${door.base}/api/v1/ppas?q=wind`);
      expect(other.status).to.equal(503);
      await other.arrayBuffer();
    } finally {
      await door.close();
    }
  });
});
