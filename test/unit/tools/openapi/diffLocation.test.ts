import { expect } from 'chai';
import { locateDiff, nodeAt, splitSchemaPath } from '../../../../tools/openapi/diffLocation.js';

const merged = {
  paths: {
    '/items': {
      get: {
        parameters: [
          { name: 'q', in: 'query' },
          { name: 'X-Request-Id', in: 'header' },
        ],
      },
    },
  },
};

describe('openapi: where a change of the document is', () => {
  it('splits a schema path into the field it leads to and the keyword', () => {
    expect(
      splitSchemaPath(['properties', 'data', 'items', 'properties', 'capacity', 'maximum']),
    ).to.deep.equal({
      field: 'data[].capacity',
      fieldSteps: 5,
      keyword: ['maximum'],
    });
    expect(splitSchemaPath(['anyOf', 1, 'pattern'])).to.deep.equal({
      field: '',
      fieldSteps: 2,
      keyword: ['pattern'],
    });
    expect(splitSchemaPath(['type', 0])).to.deep.equal({ field: '', fieldSteps: 0, keyword: ['type', 0] });
    expect(splitSchemaPath(['items', 'enum', 2])).to.deep.equal({
      field: '[]',
      fieldSteps: 1,
      keyword: ['enum', 2],
    });
  });

  it('reads a node by its path', () => {
    expect(nodeAt(merged, ['paths', '/items', 'get', 'parameters', 1, 'name'])).to.equal('X-Request-Id');
    expect(nodeAt(merged, ['paths', '/nothing', 'get'])).to.equal(undefined);
  });

  it('names the operation, and nothing outside the paths', () => {
    expect(locateDiff(['paths', '/items', 'get'], merged)).to.include({
      operation: 'GET /items',
      side: 'operation',
      where: '',
    });
    expect(locateDiff(['components', 'schemas', 'Item', 'properties', 'id'], merged)).to.equal(undefined);
    expect(locateDiff(['info', 'version'], merged)).to.equal(undefined);
  });

  it('names a parameter by its name and place, and the keyword of its schema', () => {
    const location = locateDiff(
      ['paths', '/items', 'get', 'parameters', 0, 'schema', 'items', 'maxLength'],
      merged,
    );
    expect(location).to.deep.include({
      side: 'request',
      where: 'query parameter `q[]`',
      keyword: ['maxLength'],
      names: ['q'],
      schemaPath: ['paths', '/items', 'get', 'parameters', 0, 'schema', 'items'],
    });
    expect(locateDiff(['paths', '/items', 'get', 'parameters', 1, 'required'], merged)).to.deep.include({
      where: 'header parameter `X-Request-Id`',
      keyword: ['required'],
    });
  });

  it('names a response, its media type, a field of its body by path and name, and a header', () => {
    const body = ['paths', '/items', 'get', 'responses', '200', 'content', 'application/json', 'schema'];
    expect(
      locateDiff([...body, 'properties', 'data', 'items', 'properties', 'capacity', 'type'], merged),
    ).to.deep.include({
      side: 'response',
      where: 'response 200 (application/json) field `data[].capacity`',
      field: 'data[].capacity',
      keyword: ['type'],
      names: ['data[].capacity', 'capacity'],
      schemaPath: [...body, 'properties', 'data', 'items', 'properties', 'capacity'],
    });
    expect(locateDiff(body.slice(0, 5), merged)).to.deep.include({
      where: 'response 200',
      names: ['/items'],
    });
    expect(locateDiff(body.slice(0, 7), merged)).to.deep.include({
      where: 'response 200 (application/json)',
    });
    expect(
      locateDiff(['paths', '/items', 'get', 'responses', '200', 'headers', 'ETag', 'schema', 'type'], merged),
    ).to.deep.include({
      side: 'response',
      where: 'response 200 header `ETag`',
      keyword: ['type'],
      names: ['ETag'],
    });
  });
});
