import { expect } from 'chai';
import { editDistance } from '../../../../../src/matching/editDistance.js';
import { computeHighlights, highlighter } from '../../../../../src/matching/highlight/highlighter.js';
import type { HighlightSource, Span } from '../../../../../src/matching/highlight/itemHighlights.js';
import { presentSuggestions } from '../../../../../src/present/suggest.js';

/** The marked texts of a value, in order. */
const marked = (value: string, spans: readonly Span[] | undefined): string[] =>
  (spans ?? []).map(([start, end]) => value.slice(start, end));

const nameMarks = (q: string, name: string, mode: 'list' | 'suggest' = 'list'): string[] =>
  marked(name, computeHighlights(q, { project_name: name }, mode).project_name);

describe('api present: highlights (issue 46)', () => {
  it('marks the words of the value a word of q names, as served (case and accents aside)', () => {
    expect(nameMarks('sao joao', 'São João Solar')).to.deep.equal(['São', 'João']);
    expect(nameMarks('SOLAR', 'Kahone Solar')).to.deep.equal(['Solar']);
  });

  it('marks a word typed with a typo: one from five letters, two from eight, the first letter included', () => {
    expect(nameMarks('Kahome', 'Kahone Solar')).to.deep.equal(['Kahone']);
    expect(nameMarks('Kafeu gorge', 'Kafue Gorge')).to.deep.equal(['Kafue', 'Gorge']);
    expect(nameMarks('Kikagatti Fals', 'Kikagati Falls')).to.deep.equal(['Kikagati', 'Falls']);
    expect(nameMarks('olar park', 'Solar Park')).to.deep.equal(['Solar', 'Park']);
    expect(nameMarks('Volar park', 'Solar Park')).to.deep.equal(['Solar', 'Park']);
    // Under five letters a word matches as typed only.
    expect(nameMarks('park', 'Bark Solar')).to.deep.equal([]);
  });

  it('marks the word being typed (the last word of q) as a prefix', () => {
    expect(nameMarks('kafue gor', 'Kafue Gorge')).to.deep.equal(['Kafue', 'Gorge']);
    expect(nameMarks('kafue gor', 'Kafue Gorge', 'suggest')).to.deep.equal(['Kafue', 'Gorge']);
    // Not a prefix when it is not the last word.
    expect(nameMarks('gor kafue', 'Kafue Gorge')).to.deep.equal(['Kafue']);
  });

  it('marks both words a joined word of q stands for, and the one word two words of q split', () => {
    expect(nameMarks('kafuegorge', 'Kafue Gorge 2')).to.deep.equal(['Kafue', 'Gorge']);
    expect(nameMarks('hydro electric', 'Tobel Hydroelectric')).to.deep.equal(['Hydroelectric']);
  });

  it('marks numerals and abbreviations written the other way', () => {
    expect(nameMarks('kafue gorge 2', 'Kafue Gorge II')).to.deep.equal(['Kafue', 'Gorge', 'II']);
    expect(nameMarks('kafue gorge ii', 'Kafue Gorge 2')).to.deep.equal(['Kafue', 'Gorge', '2']);
    expect(nameMarks('kafue pv', 'Kafue Photovoltaic')).to.deep.equal(['Kafue', 'Photovoltaic']);
    expect(nameMarks('kafue photovoltaic', 'Kafue PV')).to.deep.equal(['Kafue', 'PV']);
    expect(nameMarks('HPP', 'Nam Hydro Power Plant')).to.deep.equal(['Hydro', 'Power', 'Plant']);
  });

  it('marks a word whose punctuation was left out, the punctuation included', () => {
    expect(nameMarks('pe solar', 'P.E. Solar')).to.deep.equal(['P.E', 'Solar']);
    expect(nameMarks('oneill', "O'Neill Wind")).to.deep.equal(["O'Neill"]);
  });

  it('cuts an ASCII value where the tokenizer does, as it cuts the same words with an accent', () => {
    // ' . : join word units; , ; join digits only; a separator at the end or before a space joins nothing.
    const ascii = "Tana P.E. 1,000;5 A,B x:y O'Neill_2 end. last'";
    const accented = "Tána P.E. 1,000;5 A,B x:y O'Neill_2 end. last'";
    const words = ['tana', 'pe', '10005', 'a', 'b', 'xy', 'oneill_2', 'end', 'last'];
    for (const value of [ascii, accented]) {
      expect(nameMarks(words.join(' '), value), value).to.deep.equal([
        value.slice(0, 4),
        'P.E',
        '1,000;5',
        'A',
        'B',
        'x:y',
        "O'Neill_2",
        'end',
        'last',
      ]);
    }
  });

  it('counts offsets in UTF-16 code units: an astral character is two', () => {
    const name = '𝔸lpha Beta 😀 Gamma';
    const spans = computeHighlights('beta gamma', { project_name: name }).project_name;
    expect(spans).to.deep.equal([
      [7, 11],
      [15, 20],
    ]);
    expect(marked(name, spans)).to.deep.equal(['Beta', 'Gamma']);
    expect(nameMarks('𝔸lpha', name)).to.deep.equal(['𝔸lpha']);
  });

  it('gives sorted, non-overlapping spans inside the value, over every text field', () => {
    const source: HighlightSource = {
      project_name: 'Solar Solar Park',
      developer: 'Solar Developers Ltd',
      location: 'Near the Solar hills',
      reference_code: 'SOL-1',
    };
    const highlights = computeHighlights('solar solar', source);
    for (const field of ['project_name', 'developer', 'location'] as const) {
      const spans = highlights[field] ?? [];
      const value = source[field] ?? '';
      expect(spans.length, field).to.be.above(0);
      spans.forEach(([start, end], index) => {
        expect(start).to.be.at.least(0);
        expect(end).to.be.above(start).and.at.most(value.length);
        if (index > 0) expect(start).to.be.above((spans[index - 1] as Span)[1]);
      });
    }
    expect(highlights.reference_code).to.equal(undefined);
  });

  it('marks the developer and the location only as the list query searches them: as typed, with the fuzziness, or as the start of the last word', () => {
    // Joined and split words, numerals and abbreviations written the other way, dropped letters: names only.
    expect(
      computeHighlights('kafuegorge', {
        project_name: 'Kafue Gorge',
        developer: 'Kafue Gorge Holdings',
        location: 'Kafue Gorge, Zambia',
      }),
    ).to.deep.equal({
      project_name: [
        [0, 5],
        [6, 11],
      ],
    });
    expect(
      computeHighlights('hydro electric', {
        project_name: 'Tobel Hydroelectric',
        developer: 'Hydroelectric Co',
      }),
    ).to.deep.equal({ project_name: [[6, 19]] });
    expect(
      computeHighlights('kafue pv', {
        project_name: 'Kafue PV',
        developer: 'Photovoltaic Partners',
        location: 'PV Town',
      }),
    ).to.deep.equal({
      project_name: [
        [0, 5],
        [6, 8],
      ],
      location: [[0, 2]],
    });
    expect(
      computeHighlights('kafue ii', {
        project_name: 'Kafue Gorge II',
        developer: 'II Holdings 2',
        location: 'Sector 2',
      }),
    ).to.deep.equal({
      project_name: [
        [0, 5],
        [12, 14],
      ],
      developer: [[0, 2]],
    });
    // "slar": a dropped letter in the name (name_dropped_letter); four letters are too few for the fuzziness.
    expect(
      computeHighlights('slar vemtures', { project_name: 'Solar Park', developer: 'Solar Ventures' }),
    ).to.deep.equal({ project_name: [[0, 5]], developer: [[6, 14]] });
    // The word being typed as a start, as typed.
    expect(
      computeHighlights('kafue vent', { project_name: 'Kafue', developer: 'Solar Ventures' }),
    ).to.deep.equal({
      project_name: [[0, 5]],
      developer: [[6, 14]],
    });
  });

  it('marks a reference code typed whole', () => {
    expect(computeHighlights('zm-ppa-0042', { reference_code: 'ZM-PPA-0042' }).reference_code).to.deep.equal([
      [0, 11],
    ]);
  });

  it('marks a reference code word as the list query matches it there: as typed or as the start of the last word, never with a typo', () => {
    const source = {
      project_name: 'Kafue Gorge',
      developer: 'Hydro Zambia',
      reference_code: 'ZM-HYDRO-2019-0042',
      technology: 'hydro',
    };
    // The same typed word marks the name with a typo, the code only as typed.
    expect(computeHighlights('kafeu hydro', source)).to.deep.equal({
      project_name: [[0, 5]],
      developer: [[0, 5]],
      reference_code: [[3, 8]],
    });
    expect(computeHighlights('hydor kafeu', source)).to.deep.equal({
      project_name: [[0, 5]],
      developer: [[0, 5]],
    });
    // The word being typed: the start of a code word, not the start with a typo (suggest's fuzzy prefix).
    expect(computeHighlights('kafue hyd', source).reference_code).to.deep.equal([[3, 8]]);
    expect(computeHighlights('kafue hyfro', source).reference_code).to.equal(undefined);
    expect(computeHighlights('kafue 2019', source).reference_code).to.deep.equal([[9, 13]]);
  });

  it('names the technology or the country when a word of q matched them rather than the text', () => {
    const source = { project_name: 'Tobel Plant', technology: 'hydro', country_code: 'CH' };
    expect(computeHighlights('tobel hydro', source)).to.deep.equal({
      project_name: [[0, 5]],
      technology: true,
    });
    expect(computeHighlights('tobel hydropower', source)).to.deep.include({ technology: true });
    expect(computeHighlights('tobel switz', source)).to.deep.equal({
      project_name: [[0, 5]],
      country_code: true,
    });
    // A word the name holds is the name's, not the technology's.
    expect(computeHighlights('hydro', { ...source, project_name: 'Tobel Hydro' })).to.deep.equal({
      project_name: [[6, 11]],
    });
    // Suggest searches the name only.
    expect(computeHighlights('tobel hydro', source, 'suggest')).to.deep.equal({ project_name: [[0, 5]] });
  });

  it('gives nothing for a q without words, and skips absent or null fields', () => {
    expect(computeHighlights('  -- ', { project_name: 'Kahone Solar' })).to.deep.equal({});
    expect(computeHighlights('solar', { project_name: null, developer: 'Solar Co' })).to.deep.equal({
      developer: [[0, 5]],
    });
  });

  it('keeps each answer to itself: answers made side by side, over the same values, mark as each alone', () => {
    const items: HighlightSource[] = [
      { project_name: 'Kafue Gorge Solar', developer: 'Kafue Energy', location: 'Solwezi' },
      { project_name: 'Solar Kafue', developer: 'Gorge Holdings', location: 'Kafue' },
      { project_name: 'Kafuegorge Solwezi', technology: 'solar', country_code: 'ZM' },
    ];
    const queries = ['kafue', 'solar gorge', 'kafuegorge', 'solwezi zambia', 'developer:kafue', 'kafu'];
    const alone = queries.map((q) => items.map((item) => computeHighlights(q, item)));
    const answers = queries.map((q) => highlighter(q));
    for (let round = 0; round < 2; round++) {
      for (const [index, item] of items.entries()) {
        for (const [answer, highlight] of answers.entries()) {
          expect(highlight(item), `${queries[answer]} on item ${index}`).to.deep.equal(alone[answer]![index]);
        }
      }
    }
  });

  it('counts a transposition as one edit', () => {
    expect(editDistance('kafeu', 'kafue', 2)).to.equal(1);
    expect(editDistance('abc', 'xyz', 1)).to.equal(2);
  });
});

describe('api present: suggestion highlights (issue 46)', () => {
  const response = {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: {
      hits: [
        {
          _index: 'i',
          _id: 'kahone-solar',
          _source: {
            slug: 'kahone-solar',
            project_name: 'Kahone Solar',
            technology: 'solar_pv',
            country_code: 'SN',
          },
        },
      ],
    },
  };

  it('marks the name only when asked', () => {
    expect(presentSuggestions(response, 'https://x.org', { q: 'kahone so' }).data[0]).to.not.have.property(
      'highlights',
    );
    expect(
      presentSuggestions(response, 'https://x.org', { q: 'kahone so', highlight: true }).data[0]?.highlights,
    ).to.deep.equal({
      project_name: [
        [0, 6],
        [7, 12],
      ],
    });
  });
});

describe('matching: highlights of precise search (issue 59)', () => {
  const ppa: HighlightSource = {
    project_name: 'Kafue Gorge South Hydro Power Plant',
    developer: 'Sinohydro Corporation',
    location: 'Kafue, Lusaka Province',
    reference_code: 'ZM-HYD-2008-001',
    technology: 'hydro',
    country_code: 'ZM',
  };
  const marks = (q: string) => {
    const highlights = computeHighlights(q, ppa);
    return Object.fromEntries(
      Object.entries(highlights).map(([field, spans]) => [
        field,
        spans === true ? true : marked(ppa[field as keyof HighlightSource] ?? '', spans),
      ]),
    );
  };

  it('marks a matched phrase as one span from its first word to its last', () => {
    expect(marks('"gorge south hydro" power')).to.deep.equal({
      project_name: ['Gorge South Hydro', 'Power'],
    });
    expect(marks('"kafue gorge" plant')).to.deep.equal({ project_name: ['Kafue Gorge', 'Plant'] });
    // Not where the words stand apart or in another order.
    expect(marks('"south gorge"')).to.deep.equal({});
  });

  it('marks an alternative where it matched, and never what is left out', () => {
    expect(marks('solar OR hydro')).to.deep.equal({ project_name: ['Hydro'] });
    expect(marks('hydro -sinohydro')).to.deep.equal({ project_name: ['Hydro'] });
    expect(marks('-kafue zambia')).to.deep.equal({ country_code: true });
    expect(marks('-"kafue gorge" plant')).to.deep.equal({ project_name: ['Plant'] });
  });

  it('marks a qualified word in its field only', () => {
    expect(marks('location:kafue')).to.deep.equal({ location: ['Kafue'] });
    expect(marks('name:kafue')).to.deep.equal({ project_name: ['Kafue'] });
    expect(marks('developer:sino')).to.deep.equal({ developer: ['Sinohydro'] });
    expect(marks('developer:kafue')).to.deep.equal({});
    // A qualified word names no technology or country: it is looked for in its field alone.
    expect(marks('location:zambia')).to.deep.equal({});
  });

  it('reads operators as plain characters in suggest', () => {
    expect(computeHighlights('-kafue', ppa, 'suggest')).to.deep.equal({ project_name: [[0, 5]] });
  });

  it('marks a pasted whole name or code as one span of that field (issue 69)', () => {
    const pasted = { ...ppa, project_name: 'PLTU -Jeneponto I & II', reference_code: '"BL" GES-7' };
    for (const q of ['PLTU -Jeneponto I & II', '  pltu  -JENEPONTO i & ii ']) {
      expect(computeHighlights(q, pasted), q).to.deep.equal({ project_name: [[0, 22]] });
    }
    expect(computeHighlights('"bl" ges-7', pasted)).to.deep.equal({ reference_code: [[0, 10]] });
    // The operator reading where the name is not the whole q: what it looks for, not what it leaves out.
    expect(computeHighlights('PLTU -Jeneponto', pasted)).to.deep.equal({ project_name: [[0, 4]] });
  });
});
