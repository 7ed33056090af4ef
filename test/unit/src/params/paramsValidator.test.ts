// paramsValidator: a query string's raw values checked against a parameters schema; the values come back typed as
// the schema says, and every problem comes back at once, named by the parameter as sent, in words a person reads.
import { expect } from 'chai';
import Type from 'typebox';
import { paramsValidator, validOnly } from '../../../../src/params/paramsValidator.js';
import { readQueryString } from '../../../../src/params/querystring.js';

const schema = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    capacity: Type.Optional(Type.Number({ minimum: 0 })),
    sort: Type.Optional(Type.String({ enum: ['name', 'date'] })),
    technology: Type.Optional(
      Type.Array(Type.String({ enum: ['solar', 'wind'], description: 'a technology' }), { maxItems: 2 }),
    ),
    year: Type.Optional(
      Type.Union([
        Type.Integer({ minimum: 1900, maximum: 2100, description: 'a year' }),
        Type.String({ pattern: '^\\d{4}\\.\\.$', description: 'a range such as 2010..' }),
      ]),
    ),
    risk_features: Type.Optional(Type.Array(Type.String({ maxLength: 5, description: 'a short code' }))),
  },
  { additionalProperties: false },
);
const validator = paramsValidator(schema, { repeatable: { risk_features: ['risk_features[]'] } });
const check = (query: string, unknownReasons?: Record<string, string>) =>
  validator.validate(readQueryString(query), unknownReasons);

describe('params/paramsValidator: query parameters against their schema', () => {
  it('types each value as its schema says: integers, numbers, comma lists, text', () => {
    expect(check('q=solar&page=2&capacity=1.5e2&technology=Solar,%20wind&sort=name')).to.deep.equal({
      params: { q: 'solar', page: 2, capacity: 150, technology: ['solar', 'wind'], sort: 'name' },
      problems: [],
    });
  });

  it('takes only strict decimal numbers: another spelling is refused as the wrong type', () => {
    expect(check('page=0x10').problems).to.deep.equal([{ name: 'page', reason: 'must be an integer' }]);
    expect(check('page=1.5').problems).to.deep.equal([{ name: 'page', reason: 'must be an integer' }]);
    expect(check('capacity=Infinity').problems).to.deep.equal([
      { name: 'capacity', reason: 'must be a number' },
    ]);
  });

  it('names every problem at once, each with its reason', () => {
    const { problems } = check('page=0&capacity=-1&q=a-very-long-query&sort=size');
    expect(problems).to.have.deep.members([
      { name: 'page', reason: 'must be between 1 and 100' },
      { name: 'capacity', reason: 'must be at least 0' },
      { name: 'q', reason: 'must be 1 to 10 characters long' },
      { name: 'sort', reason: 'must be one of: name, date' },
    ]);
  });

  it('refuses a key sent twice, unless the schema makes it repeatable', () => {
    expect(check('page=1&page=2').problems).to.deep.equal([
      { name: 'page', reason: 'must be given at most once' },
    ]);
    expect(check('risk_features=a&risk_features[]=b,C').params.risk_features).to.deep.equal(['a', 'b', 'c']);
  });

  it('names a bad token of a merged list by the key it came under', () => {
    expect(check('risk_features=ok&risk_features[]=toolong').problems).to.deep.equal([
      { name: 'risk_features[]', reason: '"toolong" is longer than 5 characters' },
    ]);
  });

  it('says which value of a list is not allowed, and refuses empty ones and too many', () => {
    expect(check('technology=solar,coal').problems).to.deep.equal([
      { name: 'technology', reason: '"coal" is not one of: solar, wind' },
    ]);
    expect(check('technology=solar,').problems).to.deep.equal([
      { name: 'technology', reason: 'contains an empty value (as in "a,,b" or a trailing ",")' },
    ]);
    expect(check('technology=solar,wind,solar').problems).to.deep.equal([
      { name: 'technology', reason: 'at most 2 values are allowed' },
    ]);
  });

  it('reads a parameter of two forms as a number when it is one, and names both forms otherwise', () => {
    expect(check('year=2015').params.year).to.equal(2015);
    expect(check('year=2010..').params.year).to.equal('2010..');
    expect(check('year=1800').problems).to.deep.equal([
      { name: 'year', reason: 'must be between 1900 and 2100' },
    ]);
    expect(check('year=soon').problems).to.deep.equal([
      { name: 'year', reason: 'must be a year, or a range such as 2010..' },
    ]);
  });

  it('refuses an unknown name, blank or not, with the reason given for it when there is one', () => {
    expect(check('colour=&page=1').problems).to.deep.equal([{ name: 'colour', reason: 'unknown parameter' }]);
    expect(check('cursor=abc', { cursor: 'not on this route' }).problems).to.deep.equal([
      { name: 'cursor', reason: 'not on this route' },
    ]);
    // A name that is a prototype's property is just another unknown name.
    expect(check('__proto__=x').problems).to.deep.equal([{ name: '__proto__', reason: 'unknown parameter' }]);
  });

  it('treats a blank known parameter as absent', () => {
    expect(check('q=&page=').params).to.deep.equal({});
  });

  it('validOnly keeps the parameters no problem names (risk_features with its alias)', () => {
    const { params, problems } = check('page=0&q=ok&risk_features=toolong');
    expect(validOnly(params, problems)).to.deep.equal({ q: 'ok' });
  });
});
