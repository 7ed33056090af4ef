import { expect } from 'chai';
import { highlightsPass, spansWellFormed } from '../../../../tools/relevance/highlightCheck.js';
import { computeHighlights } from '../../../../src/matching/highlight/highlighter.js';

describe('relevance: the highlights check (issue 46)', () => {
  const item = {
    project_name: 'Kafue Gorge Solar',
    developer: 'ZESCO',
    location: null,
    reference_code: 'ZM-1',
  };

  it('passes the API’s highlights of a name typed exactly, with a typo or as a prefix', () => {
    for (const [queryClass, q] of [
      ['exact', 'Kafue Gorge Solar'],
      ['typo', 'Kafue Gorge Solra'],
      ['typing_prefix', 'Kafue Gor'],
    ] as const) {
      expect(highlightsPass(queryClass, q, item, computeHighlights(q, item)), q).to.equal(true);
    }
  });

  it('fails spans outside the value, overlapping, or leaving out a word the query names', () => {
    expect(highlightsPass('exact', 'Kafue Gorge Solar', item, { project_name: [[0, 50]] })).to.equal(false);
    expect(
      highlightsPass('exact', 'Kafue Gorge Solar', item, {
        project_name: [
          [0, 5],
          [3, 11],
        ],
      }),
    ).to.equal(false);
    expect(
      highlightsPass('exact', 'Kafue Gorge Solar', item, {
        project_name: [
          [0, 5],
          [6, 11],
        ],
      }),
    ).to.equal(false);
    expect(highlightsPass('word_place', 'Kafue Lusaka', item, { project_name: [[12, 17]] })).to.equal(false);
    expect(highlightsPass('exact', 'Kafue', item, undefined)).to.equal(false);
  });

  it('passes a match through the technology or the country', () => {
    expect(highlightsPass('name_technology', 'x hydro', item, { technology: true })).to.equal(true);
    expect(
      spansWellFormed(
        [
          [1, 2],
          [2, 3],
        ],
        5,
      ),
    ).to.equal(false);
  });
});
