import { expect } from 'chai';
import type { BreakingChange } from '../../../../tools/openapi/breakingChanges.js';
import {
  allowedBy,
  breakingEntries,
  breakingWaivers,
  changelogSection,
  kindOf,
  operationIdsOf,
  releasedVersions,
} from '../../../../tools/openapi/changelogBreaking.js';

const CHANGELOG = [
  '# Changelog',
  '',
  '## Unreleased',
  '',
  '### Breaking',
  '',
  'Each entry: - `<operation>` `<name>` <kind>: why.',
  '',
  '- `GET /api/v1/ppas` `per_page` narrowed: at most 50 (was 100).',
  '- `listPpas` `data[].capacity_mw` type: a string, `capacity_mw` as written.',
  '- `listPpas` `year` narrowed: the range form only.',
  '',
  '### Added',
  '- `token`, a new parameter.',
  '',
  '## 0.4.0 - 2026-12-01',
  '',
  '### Breaking',
  '- `GET /api/v1/ppas/suggest` `/api/v1/ppas/suggest` removed: use the list.',
  '',
  '## 0.3.0 - 2026-11-29',
  '',
  '### Changed',
  '- `year` is a string.',
].join('\n');

const change = (
  names: string[],
  what = 'maximum 100 → 50',
  operation = 'GET, HEAD /api/v1/ppas',
): BreakingChange => ({
  operation,
  where: '',
  change: what,
  names,
});

const DOCUMENT = {
  paths: {
    '/api/v1/ppas': { get: { operationId: 'listPpas' }, head: { operationId: 'listPpasHead' } },
    '/api/v1/ppas/statistics': { get: { operationId: 'ppaStatistics' } },
  },
};
const IDS = operationIdsOf(DOCUMENT);

describe('openapi: what CHANGELOG.md lets break', () => {
  it('reads a section by the start of its heading, up to the next', () => {
    expect(changelogSection(CHANGELOG, '0.4.0')).to.include('suggest').and.not.include('year');
    expect(changelogSection(CHANGELOG, 'Unreleased')).to.include('per_page').and.not.include('suggest');
    expect(changelogSection(CHANGELOG, '0.9.0')).to.equal(undefined);
  });

  it('reads only the entries under ### Breaking', () => {
    expect(breakingEntries(changelogSection(CHANGELOG, 'Unreleased')!))
      .to.include('per_page')
      .and.not.include('token');
    expect(breakingEntries(changelogSection(CHANGELOG, '0.3.0')!)).to.equal('');
  });

  it('reads each entry as the operation, the name and the kind it waives; a line not in that form is malformed', () => {
    const { waivers, malformed } = breakingWaivers(CHANGELOG, ['Unreleased']);
    expect(waivers).to.deep.equal([
      { operation: 'GET /api/v1/ppas', name: 'per_page', kind: 'narrowed' },
      { operation: 'listPpas', name: 'data[].capacity_mw', kind: 'type' },
      { operation: 'listPpas', name: 'year', kind: 'narrowed' },
    ]);
    expect(malformed).to.deep.equal([]);
    const loose = breakingWaivers('## Unreleased\n### Breaking\n- `year` is a string now.\n', ['Unreleased']);
    expect(loose).to.deep.equal({ waivers: [], malformed: ['- `year` is a string now.'] });
  });

  it('names the kind of each change as breakingChanges words it', () => {
    expect(kindOf(change(['x'], 'removed'))).to.equal('removed');
    expect(kindOf(change(['x'], 'added, required'))).to.equal('required');
    expect(kindOf(change(['x'], '`x` now required'))).to.equal('required');
    expect(kindOf(change(['x'], '`x` no longer required'))).to.equal('optional');
    expect(kindOf(change(['x'], 'type integer → string'))).to.equal('type');
    expect(kindOf(change(['x'], 'enum value "a" removed'))).to.equal('narrowed');
    expect(kindOf(change(['x'], 'pattern "^a$" added'))).to.equal('narrowed');
  });

  it('allows exactly the operation, name and kind an entry names (by METHOD /path or by operationId)', () => {
    const { waivers } = breakingWaivers(CHANGELOG, ['Unreleased']);
    expect(allowedBy(change(['per_page']), waivers, IDS)).to.equal(true);
    expect(
      allowedBy(change(['data[].capacity_mw', 'capacity_mw'], 'type integer → string'), waivers, IDS),
    ).to.equal(true);
    expect(allowedBy(change(['per_page'], 'removed'), waivers, IDS), 'another kind of break').to.equal(false);
    expect(allowedBy(change(['token']), waivers, IDS), 'named under Added only').to.equal(false);
    expect(
      allowedBy(change(['/api/v1/ppas/suggest'], 'removed', 'GET, HEAD /api/v1/ppas/suggest'), waivers, IDS),
    ).to.equal(false);
    const releasing = breakingWaivers(CHANGELOG, ['Unreleased', '0.4.0']).waivers;
    expect(
      allowedBy(
        change(['/api/v1/ppas/suggest'], 'removed', 'GET, HEAD /api/v1/ppas/suggest'),
        releasing,
        IDS,
      ),
    ).to.equal(true);
  });

  it('a waiver of `year` on the list does not waive a break of `year` on the statistics', () => {
    const { waivers } = breakingWaivers(CHANGELOG, ['Unreleased']);
    const onList = change(['year'], 'pattern "^..$" added', 'GET, HEAD /api/v1/ppas');
    const onStatistics = change(['year'], 'pattern "^..$" added', 'GET, HEAD /api/v1/ppas/statistics');
    expect(allowedBy(onList, waivers, IDS)).to.equal(true);
    expect(allowedBy(onStatistics, waivers, IDS)).to.equal(false);
    // Nor on a longer path that starts the same, nor by the HEAD twin's name alone.
    expect(
      allowedBy(change(['year'], 'pattern "^..$" added', 'GET /api/v1/ppas/export'), waivers, IDS),
    ).to.equal(false);
    const headOnly = [{ operation: 'listPpasHead', name: 'year', kind: 'narrowed' as const }];
    expect(allowedBy(onList, headOnly, IDS), 'HEAD alone does not waive the GET it follows').to.equal(false);
  });

  it('lists the released versions, newest first', () => {
    expect(releasedVersions(CHANGELOG)).to.deep.equal(['0.4.0', '0.3.0']);
  });
});
