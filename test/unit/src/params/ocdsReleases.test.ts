import { expect } from 'chai';
import type { BadRequestError } from '../../../../src/http/problem.js';
import { encodeCursor } from '../../../../src/params/cursor.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { ocdsReleasesQuery } from '../../../../src/params/ocdsReleases.js';

const names = (querystring: string) => {
  try {
    ocdsReleasesQuery.parse(querystring);
    return [];
  } catch (error) {
    return ((error as BadRequestError).invalidParams ?? []).map((problem) => problem.name);
  }
};

describe('api params: the release package (GET /api/v1/ppas/ocds)', () => {
  it('is a list query in cursor mode: the first page without a cursor, per_page 25 by default', () => {
    const query = ocdsReleasesQuery.parse('q=solar&technology=!wind');
    expect(query).to.deep.include({ cursor: { start: true }, perPage: 25, sort: 'relevance', page: 1 });
    expect(query.technology).to.deep.equal(parseListQuery('q=solar&technology=!wind').technology);
  });

  it('walks on with a cursor of the same walk, the list’s included', () => {
    const list = parseListQuery('sort=name_asc&cursor=*');
    const cursor = encodeCursor(list, { after: ['a', 'a'], missing: false });
    expect(ocdsReleasesQuery.parse(`sort=name_asc&cursor=${cursor}`).cursor).to.deep.equal({
      start: false,
      after: ['a', 'a'],
      missing: false,
    });
    expect(names(`sort=name_desc&cursor=${cursor}`)).to.deep.equal(['cursor']);
  });

  it('names what is bad: per_page, cursor, sort, year; page, fields, facets, highlight are not its', () => {
    expect(names('per_page=101')).to.deep.equal(['per_page']);
    expect(names('cursor=nope')).to.deep.equal(['cursor']);
    expect(names('sort=relevance')).to.deep.equal(['sort']);
    expect(names('year=abc')).to.deep.equal(['year']);
    expect(names('page=2&fields=slug&facets=technology&highlight=true')).to.deep.equal([
      'page',
      'fields',
      'facets',
      'highlight',
    ]);
  });
});
