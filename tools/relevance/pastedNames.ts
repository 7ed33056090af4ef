// The pasted-name check (issue 69): every live name of the corpus that holds what the precise syntax may read as an
// operator (`-`, `"`, ` OR ` in any case, `:`) is pasted as `q` as written, in capitals, and padded with spaces, and
// must come first: one of the records of that very name (folded, its spaces collapsed) at rank 1. Run through the
// list's request path, with highlight=true: the name must then be marked, as one span when it is read as operators.
import type { PpaRecord } from '../../indexContract/record.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { ListSource } from '../../indexContract/sourceFields.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { parseQuery } from '../../src/matching/queryText.js';
import { parseListQuery } from '../../src/params/list.js';
import { highlighterFor, presentList } from '../../src/present/list.js';
import { buildListSearch } from '../../src/queries/listSearch.js';

/** What may be read as an operator in a name: a `-`, a quote, an "or" between spaces (OR in capitals), a colon. */
const OPERATOR_LOOKING = /[-":]| or /iu;

export interface PastedNameQuery {
  q: string;
  form: 'as written' | 'capitals' | 'padded';
  /** The records of that name: any of them first is right. */
  equivalent: string[];
  /** The name is read as operators in this form: its highlight must be one span of the whole name. */
  operators: boolean;
}

export interface PastedNameFigures {
  names: number;
  /** Of them, names some form of which is read as operators. */
  readAsOperators: number;
  queries: number;
  /** Queries read as operators. */
  operatorQueries: number;
  /** Queries whose first hit is the name's record. */
  first: number;
  /** Queries read as operators whose first hit's name is marked as one span. */
  markedWhole: number;
  misses: string[];
}

const sameName = (name: string) => foldText(name).trim().replace(/\s+/gu, ' ');

export function pastedNameQueries(records: readonly PpaRecord[]): PastedNameQuery[] {
  const byName = new Map<string, PpaRecord[]>();
  for (const record of records) {
    if (!record.published || !record.active || !OPERATOR_LOOKING.test(record.project_name)) continue;
    const key = sameName(record.project_name);
    byName.set(key, [...(byName.get(key) ?? []), record]);
  }
  return [...byName.values()].flatMap((named) => {
    const name = named[0]!.project_name;
    const equivalent = named.map((record) => record.slug);
    const forms = [
      { q: name, form: 'as written' as const },
      { q: name.toUpperCase(), form: 'capitals' as const },
      { q: `  ${name.split(/\s+/u).join('  ')}   `, form: 'padded' as const },
    ];
    return forms.map(({ q, form }) => ({ q, form, equivalent, operators: !parseQuery(q).plain }));
  });
}

/** Whether `spans` mark `value` whole, as one span. */
const markedWhole = (value: string, spans: unknown) =>
  Array.isArray(spans) && spans.length === 1 && spans[0][0] === 0 && spans[0][1] === value.length;

export async function runPastedNameCheck(
  search: SearchGateway,
  records: readonly PpaRecord[],
): Promise<PastedNameFigures> {
  const queries = pastedNameQueries(records);
  const figures = {
    names: queries.length / 3,
    queries: queries.length,
    operatorQueries: queries.filter((query) => query.operators).length,
    first: 0,
    markedWhole: 0,
  };
  const misses: string[] = [];
  const operatorNames = new Set<string>();
  // A few at a time: the machine is shared.
  for (let at = 0; at < queries.length; at += 4) {
    await Promise.all(
      queries.slice(at, at + 4).map(async (query) => {
        const listQuery = parseListQuery(`q=${encodeURIComponent(query.q)}&per_page=3&highlight=true`);
        const response = await search.search<ListSource>(buildListSearch(listQuery));
        const top = response.hits.hits[0]?._source;
        const first = top !== undefined && query.equivalent.includes(top.slug);
        if (first) figures.first++;
        else misses.push(`${query.form} ${JSON.stringify(query.q)}: first ${top?.slug ?? 'none'}`);
        if (!query.operators) return;
        operatorNames.add(query.equivalent[0]!);
        const highlight = highlighterFor(listQuery);
        const { body } = presentList(
          { response },
          { query: listQuery, querystring: '', base: '', highlight },
        );
        const item = body.data[0];
        if (first && item && markedWhole(top.project_name, item.highlights?.project_name))
          figures.markedWhole++;
        else if (first) misses.push(`${query.form} ${JSON.stringify(query.q)}: not marked as one span`);
      }),
    );
  }
  return { ...figures, readAsOperators: operatorNames.size, misses };
}
