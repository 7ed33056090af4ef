// The text of an export's batches: CSV with the cell rules and NDJSON, one item a line.
import { expect } from 'chai';
import { csvText, ndjsonText } from '../../../../src/export/exportBody.js';
import type { ListItem } from '../../../../src/present/list.js';

const item = (changes: Record<string, unknown>) =>
  ({ slug: 'a', project_name: 'A', ...changes }) as unknown as ListItem;

describe('export/exportBody: a batch as text', () => {
  it('writes CSV with a header on the first batch only, lists joined by ";", null empty, formulas quoted', () => {
    const items = [item({ project_name: '=SUM(A1)', risk_features: ['a', 'b'], country_code: null })];
    const columns = ['slug', 'project_name', 'risk_features', 'country_code'];
    expect(csvText(items, columns, true)).to.equal(
      "slug,project_name,risk_features,country_code\r\na,'=SUM(A1),a;b,\r\n",
    );
    expect(csvText(items, columns, false)).to.equal("a,'=SUM(A1),a;b,\r\n");
  });

  it('writes NDJSON, each item on its own line ending in a newline', () => {
    expect(ndjsonText([item({}), item({ slug: 'b' })])).to.equal(
      '{"slug":"a","project_name":"A"}\n{"slug":"b","project_name":"A"}\n',
    );
  });
});
