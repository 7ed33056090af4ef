import { expect } from 'chai';
import { mixRequest } from '../../../../bench/perf/requestMix.js';
import { referenceRequest } from '../../../../bench/perf/reference.js';

interface Body {
  query: { bool: { filter: unknown[]; must?: unknown[] } };
  sort?: unknown;
  size?: number;
}

describe('bench/perf/reference: the plain query the API is compared against', () => {
  it('swaps a list’s text query for one multi_match and keeps filters, sort and page', () => {
    const request = mixRequest('list_q', 'q=Tobel%20Hydro&technology=hydro&sort=capacity_desc&per_page=20');
    const reference = referenceRequest(request);
    const api = JSON.parse(request.esBody) as Body;
    const plain = JSON.parse(reference.esBody) as Body;
    expect(plain.query.bool.must).to.deep.equal([
      {
        multi_match: {
          query: 'tobel hydro',
          fields: ['name_folded^3', 'reference_code_folded^3', 'developer_folded', 'location_folded'],
          type: 'best_fields',
          operator: 'and',
          fuzziness: 'AUTO',
        },
      },
    ]);
    expect(plain.query.bool.filter).to.deep.equal(api.query.bool.filter);
    expect(plain.sort).to.deep.equal(api.sort);
    expect(plain.size).to.equal(20);
    expect(reference.apiPath).to.equal(request.apiPath);
  });

  it('takes the first letter as typed when asked (the plain query of issue 47: prefix_length 1), q folded', () => {
    const request = mixRequest('list_q', 'q=S%C3%A3o%20Jo%C3%A3o&country=BR');
    const must = (JSON.parse(referenceRequest(request, 1).esBody) as Body).query.bool.must;
    expect(must).to.deep.equal([
      {
        multi_match: {
          query: 'sao joao',
          fields: ['name_folded^3', 'reference_code_folded^3', 'developer_folded', 'location_folded'],
          type: 'best_fields',
          operator: 'and',
          fuzziness: 'AUTO',
          prefix_length: 1,
        },
      },
    ]);
  });

  it('swaps the text query of statistics with q, wherever it sits in the body', () => {
    const request = mixRequest('statistics', 'q=Kafue&country=ZM');
    const reference = referenceRequest(request);
    expect(reference.esBody).to.not.equal(request.esBody);
    expect(reference.esBody).to.include('"fuzziness":"AUTO"');
    expect(reference.esBody).to.not.include('name_dropped_letter');
    expect(JSON.parse(reference.esBody)).to.have.property('aggs');
  });

  it('leaves a filter-only list, statistics without q and a detail as they are (already the plain form)', () => {
    for (const request of [
      mixRequest('list_filter', 'technology=solar_pv&country=MX'),
      mixRequest('statistics', 'country=MX'),
      mixRequest('detail', 'sierra-alta-solar-park-374'),
    ]) {
      expect(referenceRequest(request)).to.equal(request);
    }
  });
});
