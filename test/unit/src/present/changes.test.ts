// A page of the change log: each event as the contract says, links that keep the request's other parameters.
import { expect } from 'chai';
import { presentChanges, presentEvent } from '../../../../src/present/changes.js';
import type { ChangeEventSource } from '../../../../src/queries/changesSearch.js';

const source = {
  slug: 'kahone-solar',
  project_name: 'Kahone Solar',
  active: false,
  change: { seq: 42, type: 'upsert', reason: 'deactivated', at: '2026-12-01T08:30:00.000+00:00' },
} as unknown as ChangeEventSource;

describe('present/changes', () => {
  it('presents an event: its token in the log’s epoch, the time in UTC with Z, the item with active', () => {
    const event = presentEvent(source, 'ab12', 'https://api.example.org/');
    expect(event).to.deep.include({
      token: 'ab12.42',
      type: 'upsert',
      reason: 'deactivated',
      slug: 'kahone-solar',
      at: '2026-12-01T08:30:00Z',
    });
    expect(event.item).to.deep.include({
      slug: 'kahone-solar',
      active: false,
      url: 'https://api.example.org/api/v1/ppas/kahone-solar',
    });
  });

  it('links the next page by since, keeping every other parameter as sent', () => {
    const body = presentChanges([], {
      next: 'ab12.42',
      retainedSince: '2026-09-01T00:00:00Z',
      base: 'https://api.example.org',
      querystring: 'country=gh&limit=10&since=ab12.7',
    });
    expect(body.meta).to.deep.equal({ next: 'ab12.42', retained_since: '2026-09-01T00:00:00Z' });
    expect(body.links).to.deep.equal({
      self: 'https://api.example.org/api/v1/ppas/changes?country=gh&limit=10&since=ab12.7',
      next: 'https://api.example.org/api/v1/ppas/changes?country=gh&limit=10&since=ab12.42',
    });
  });
});
