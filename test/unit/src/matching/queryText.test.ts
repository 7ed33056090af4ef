import { expect } from 'chai';
import {
  looksFor,
  parseQuery,
  SearchText,
  searchTextOf,
  wordCount,
  writtenPlainWords,
  writtenWordsOf,
  type ParsedQuery,
} from '../../../../src/matching/queryText.js';

/** A parsed q in short: each clause as its terms ("word", '"a phrase"', "field:word"), "-" before one left out, "|" between alternatives, "…" after the word being typed. */
function shape(parsed: ParsedQuery): string[] {
  return parsed.clauses.map((clause) => {
    const terms = clause.terms.map((term) => {
      const text = term.phrase ? `"${term.words.join(' ')}"` : term.words.join(' ');
      return term.field === undefined ? text : `${term.field}:${text}`;
    });
    return `${clause.excluded ? '-' : ''}${terms.join('|')}${clause.typing ? '…' : ''}`;
  });
}

const read = (q: string) => shape(parseQuery(q));

describe('matching: q read into terms (queryText.ts, docs/api.md "Search syntax")', () => {
  it('reads a q without operators as its plain words, folded, the last one being typed', () => {
    const parsed = parseQuery('  São  João SOLAR ');
    expect(parsed.plain).to.equal(true);
    expect(shape(parsed)).to.deep.equal(['sao', 'joao', 'solar…']);
  });

  it('reads a phrase in quotes, an unclosed quote closing at the end of q', () => {
    expect(read('"Kafue Gorge" south')).to.deep.equal(['"kafue gorge"', 'south…']);
    // The prefix rule is the last term's, and never a phrase's: after a phrase, no word is being typed.
    expect(read('solar "kafue gorge')).to.deep.equal(['solar', '"kafue gorge"']);
    expect(read('"kafue gorge" sol')).to.deep.equal(['"kafue gorge"', 'sol…']);
  });

  it('reads - as an operator only at the start of a term', () => {
    expect(read('hydro -sinohydro')).to.deep.equal(['hydro…', '-sinohydro']);
    expect(read('-"sino hydro" dam')).to.deep.equal(['-"sino hydro"', 'dam…']);
    const plain = parseQuery('Run-of-River ZM-HYD-2008 - coal');
    expect(plain.plain).to.equal(true);
    expect(shape(plain)).to.deep.equal(['run-of-river', 'zm-hyd-2008', 'coal…']);
  });

  it('joins terms around an upper-case OR; at an end, doubled, lower case or beside a - it is the word "or"', () => {
    expect(read('solar OR wind ghana')).to.deep.equal(['solar|wind', 'ghana…']);
    expect(read('a OR "b c" OR d')).to.deep.equal(['a|"b c"|d…']);
    for (const q of ['OR solar', 'solar OR', 'solar OR OR wind', 'solar or wind']) {
      expect(parseQuery(q).plain, q).to.equal(true);
      expect(
        read(q).map((clause) => clause.replace('…', '')),
        q,
      ).to.include('or');
    }
    expect(read('solar OR -wind')).to.deep.equal(['solar', 'or…', '-wind']);
  });

  it('reads the four qualifiers before a word or a phrase, also after - and inside OR; other words with a colon are text', () => {
    expect(read('developer:acme')).to.deep.equal(['developer:acme…']);
    expect(read('name:"kafue gorge" location:ghana')).to.deep.equal([
      'project_name:"kafue gorge"',
      'location:ghana…',
    ]);
    expect(read('-code:ZM-HYD solar')).to.deep.equal(['-reference_code:zm-hyd', 'solar…']);
    expect(read('developer:acme OR name:acme')).to.deep.equal(['developer:acme|project_name:acme…']);
    for (const q of ['abc:def', 'developer: acme', 'http://x']) expect(parseQuery(q).plain, q).to.equal(true);
  });

  it('reads operators that name nothing as plain text: no input is an error', () => {
    for (const q of ['-- !!', '"', '""', '-" "', 'OR']) {
      const parsed = parseQuery(q);
      expect(parsed.plain, q).to.equal(true);
    }
  });

  it('counts every word for the bounds (phrases, alternatives, exclusions), and tells a q that only leaves out', () => {
    expect(wordCount(parseQuery('"a b c" d OR e -f -"g h"'))).to.equal(8);
    expect(looksFor(parseQuery('-coal -gas'))).to.equal(false);
    expect(looksFor(parseQuery('-coal ghana'))).to.equal(true);
    expect(looksFor(parseQuery('coal'))).to.equal(true);
  });
});

describe('matching: the plain words of q as written (queryText.ts, issue 69)', () => {
  const placed = (q: string) =>
    writtenPlainWords(q).words.map(({ start, end, words, typing }) => [
      q.slice(start, end),
      words.join(' '),
      typing,
    ]);

  it('gives each plain word with its place in q, the last looked for being typed', () => {
    expect(placed(' São  João solar ')).to.deep.equal([
      ['São', 'sao', false],
      ['João', 'joao', false],
      ['solar', 'solar', true],
    ]);
    expect(writtenPlainWords('kafue').othersLookedFor).to.equal(false);
  });

  it('leaves out what is not a plain word: phrases, exclusions, alternatives, qualified words', () => {
    const q = 'kafue "gorge south" -solar hydro OR wind developer:acme dam';
    expect(placed(q)).to.deep.equal([
      ['kafue', 'kafue', false],
      ['dam', 'dam', true],
    ]);
    expect(writtenPlainWords(q).othersLookedFor).to.equal(true);
    expect(writtenPlainWords('kafue -solar').othersLookedFor).to.equal(false);
    expect(writtenWordsOf('"kafue -x').map(({ words }) => words)).to.deep.equal([['"kafue'], ['-x']]);
  });
});

describe('matching: q read once a request (SearchText, issue 73)', () => {
  it('parses on first use, keeps that reading, and reads as parseQuery does', () => {
    const q = new SearchText('"kafue gorge" -solar developer:zesco hyd');
    const first = q.parsed;
    expect(q.parsed).to.equal(first); // the same object: not read again
    expect(first).to.deep.equal(parseQuery(q.text));
    expect(searchTextOf(q)).to.equal(q);
    expect(searchTextOf('kafue').parsed).to.deep.equal(parseQuery('kafue'));
  });
});
