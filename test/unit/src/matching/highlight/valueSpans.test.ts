import { expect } from 'chai';
import { namePlanOf, writtenPlanOf } from '../../../../../src/matching/highlight/queryPlan.js';
import { newValueScratch, valueSpans } from '../../../../../src/matching/highlight/valueSpans.js';
import type { HighlightTextField, Span } from '../../../../../src/matching/highlight/itemHighlights.js';

/** The marked texts of a value for `q`, and the words of q it named. */
function marks(q: string, value: string, field: HighlightTextField = 'project_name') {
  const name = namePlanOf(q, 'list');
  const plan =
    field === 'project_name'
      ? name
      : writtenPlanOf(name, name.allowed, field === 'reference_code' ? 'exact' : 'text');
  const scratch = newValueScratch();
  const spans: Span[] | undefined = valueSpans(plan, scratch, value, field);
  return {
    marked: (spans ?? []).map(([start, end]) => value.slice(start, end)),
    matched: scratch.matched,
    spans,
  };
}

describe("matching: one value's spans (highlight/valueSpans.ts)", () => {
  it('marks each word a word of q names, at its own offsets; the words of q it named', () => {
    expect(marks('kafue dam', 'Lower Kafue Gorge')).to.deep.include({ marked: ['Kafue'], matched: 0b01 });
    expect(marks('kafue gorge', 'Kafue Gorge').spans).to.deep.equal([
      [0, 5],
      [6, 11],
    ]);
    expect(marks('solar', 'Kafue Gorge')).to.deep.include({ spans: undefined, matched: 0 });
  });

  it('marks both words a joining word of q stands for, and all three of three written as one', () => {
    expect(marks('kafuegorge', 'Lower Kafue Gorge')).to.deep.include({
      marked: ['Kafue', 'Gorge'],
      matched: 1,
    });
    expect(marks('kafuegorgedam', 'Kafue Gorge Dam').marked).to.deep.equal(['Kafue', 'Gorge', 'Dam']);
  });

  it('marks a phrase as one span from its first word to its last, in its own field only', () => {
    expect(marks('"kafue gorge"', 'Lower Kafue Gorge Dam').spans).to.deep.equal([[6, 17]]);
    expect(marks('"gorge kafue"', 'Lower Kafue Gorge Dam').spans).to.equal(undefined);
    expect(marks('developer:"kafue gorge"', 'Lower Kafue Gorge Dam').spans).to.equal(undefined);
  });

  it('marks a reference code typed whole as one span, every word of q named', () => {
    expect(marks('zm-hyd-2008', 'ZM-HYD-2008', 'reference_code')).to.deep.include({
      spans: [[0, 11]],
      matched: 1,
    });
    // Its words, as typed only: no typo in the reference code.
    expect(marks('hyd', 'ZM-HYD-2008', 'reference_code').marked).to.deep.equal(['HYD']);
    expect(marks('hyx 2008', 'ZM-HYD-2008', 'reference_code').marked).to.deep.equal(['2008']);
  });

  it('compares outside the name by the written words only: no numeral written the other way', () => {
    expect(marks('kafue 2', 'Kafue II').marked).to.deep.equal(['Kafue', 'II']);
    expect(marks('kafue 2', 'Kafue II', 'location').marked).to.deep.equal(['Kafue']);
  });

  it('looks at the first 256 words of a value only', () => {
    const value = `${'word '.repeat(256)}kafue`;
    expect(marks('kafue', value).spans).to.equal(undefined);
    expect(marks('kafue', `${'word '.repeat(255)}kafue`).marked).to.deep.equal(['kafue']);
  });

  it('reuses its working space value after value without carrying a word over', () => {
    const plan = namePlanOf('kafue', 'list');
    const scratch = newValueScratch();
    expect(valueSpans(plan, scratch, 'Kafue Gorge Dam Lower', 'project_name')).to.deep.equal([[0, 5]]);
    expect(valueSpans(plan, scratch, 'Gorge', 'project_name')).to.equal(undefined);
    expect(scratch.matched).to.equal(0);
  });
});
