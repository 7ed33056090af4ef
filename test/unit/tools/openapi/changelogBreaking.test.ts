import { expect } from 'chai';
import type { BreakingChange } from '../../../../tools/openapi/breakingChanges.js';
import {
  allowedBy,
  breakingEntries,
  changelogSection,
  namesAllowedToBreak,
  releasedVersions,
} from '../../../../tools/openapi/changelogBreaking.js';

const CHANGELOG = [
  '# Changelog',
  '',
  '## Unreleased',
  '',
  '### Breaking',
  '- `per_page` is at most 50 (was 100); `data[].capacity_mw` is a string.',
  '',
  '### Added',
  '- `token`, a new parameter.',
  '',
  '## 0.4.0 - 2026-12-01',
  '',
  '### Breaking',
  '- `/api/v1/ppas/suggest` is gone.',
  '',
  '## 0.3.0 - 2026-11-29',
  '',
  '### Changed',
  '- `year` is a string.',
].join('\n');

const change = (names: string[]): BreakingChange => ({
  operation: 'GET /x',
  where: '',
  change: 'removed',
  names,
});

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

  it('allows a break whose parameter, field or path an entry names between backticks', () => {
    const unreleased = namesAllowedToBreak(CHANGELOG, ['Unreleased']);
    expect([...unreleased]).to.deep.equal(['per_page', 'data[].capacity_mw']);
    expect(allowedBy(change(['per_page']), unreleased)).to.equal(true);
    expect(allowedBy(change(['data[].capacity_mw', 'capacity_mw']), unreleased)).to.equal(true);
    expect(allowedBy(change(['token']), unreleased), 'named under Added only').to.equal(false);
    expect(allowedBy(change(['/api/v1/ppas/suggest']), unreleased)).to.equal(false);
    const releasing = namesAllowedToBreak(CHANGELOG, ['Unreleased', '0.4.0']);
    expect(allowedBy(change(['/api/v1/ppas/suggest']), releasing)).to.equal(true);
  });

  it('lists the released versions, newest first', () => {
    expect(releasedVersions(CHANGELOG)).to.deep.equal(['0.4.0', '0.3.0']);
  });
});
