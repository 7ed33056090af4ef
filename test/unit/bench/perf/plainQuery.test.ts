import { expect } from 'chai';
import { mixRequest } from '../../../../bench/perf/mix.js';
import { plainQuery, withPlainText } from '../../../../bench/perf/plainQuery.js';
import { buildTextQuery, TEXT_FIELDS } from '../../../../src/search/textQuery.js';

describe('bench/perf/plainQuery: the raw side of scale --raw-q plain', () => {
  const plain = JSON.stringify(plainQuery('Alentejo solr', TEXT_FIELDS));
  const forgiving = JSON.stringify(buildTextQuery('Alentejo solr'));

  for (const [kind, querystring] of [
    ['list_q', 'q=%20Alentejo%20solr&country=PT'],
    ['statistics', 'q=Alentejo%20solr&technology=solar'],
  ] as const) {
    it(`swaps the text clause of a ${kind} for the plain query and keeps the rest of the body`, () => {
      const request = mixRequest(kind, querystring);
      const swapped = withPlainText(request);
      expect(request.esBody).to.include(forgiving);
      expect(swapped.esBody).not.to.include(forgiving);
      expect(swapped.esBody).to.include(plain);
      expect(swapped.esBody).to.equal(request.esBody.replace(forgiving, plain));
      expect(swapped.apiPath).to.equal(request.apiPath);
    });
  }

  it('leaves a request without q as it is', () => {
    const list = mixRequest('list_filter', 'country=PT');
    const detail = mixRequest('detail', 'some-slug');
    expect(withPlainText(list)).to.equal(list);
    expect(withPlainText(detail)).to.equal(detail);
  });
});
