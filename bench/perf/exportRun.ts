// Export throughput: the API's GET /api/v1/ppas/export (NDJSON and CSV) against a raw search_after walk of
// Elasticsearch with the very batch bodies the API sends, and the API's resident memory while it streams.
import { readFile } from 'node:fs/promises';
import { parseExportQuery } from '../../src/params/export.js';
import { EXPORT_BATCH_SIZE, buildExportBatch } from '../../src/queries/exportSearch.js';
import { CLIENT_CONTENT_HEADERS, type EsTarget } from './rawElasticsearch.js';

export interface ExportTiming {
  records: number;
  seconds: number;
  recordsPerSecond: number;
}

export interface ExportFigures {
  ndjson: ExportTiming;
  csv: ExportTiming;
  raw: ExportTiming;
  /** The peak resident set of an API process that served only the exports (MiB). */
  apiRssMb: number;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** Reads the export to its end, counting records (NDJSON lines, CSV rows after the header). */
async function timeApiExport(apiUrl: string, format: 'csv' | 'ndjson'): Promise<ExportTiming> {
  const started = performance.now();
  const response = await fetch(`${apiUrl}/api/v1/ppas/export?format=${format}`);
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  let records = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    // Every record ends its line (CSV cells with a line break are quoted: these records have none).
    for (const byte of chunk) if (byte === 0x0a) records++;
    decoder.decode(chunk, { stream: true });
  }
  if (format === 'csv') records -= 1; // the header row
  const seconds = (performance.now() - started) / 1000;
  return { records, seconds, recordsPerSecond: records / seconds };
}

/** The same walk straight from Elasticsearch: the API's batch bodies, search_after from each batch's last hit. */
async function timeRawWalk(es: EsTarget, alias: string): Promise<ExportTiming> {
  const query = parseExportQuery('format=ndjson');
  const started = performance.now();
  let records = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const response = await fetch(`${es.url}/${alias}/_search`, {
      method: 'POST',
      headers: { ...es.headers, ...CLIENT_CONTENT_HEADERS },
      body: JSON.stringify(buildExportBatch(query, after)),
    });
    const body = (await response.json()) as { hits: { hits: { sort?: unknown[] }[] } };
    const hits = body.hits.hits;
    records += hits.length;
    if (hits.length < EXPORT_BATCH_SIZE) break;
    after = hits[hits.length - 1]?.sort;
  }
  const seconds = (performance.now() - started) / 1000;
  return { records, seconds, recordsPerSecond: records / seconds };
}

export async function measureExport(
  apiUrl: string,
  apiPid: number,
  es: EsTarget,
  alias: string,
): Promise<ExportFigures> {
  let peak = 0;
  const sampler = setInterval(() => {
    void rssMb(apiPid).then((mb) => (peak = Math.max(peak, mb)));
  }, 50);
  try {
    const raw = await timeRawWalk(es, alias);
    const ndjson = await timeApiExport(apiUrl, 'ndjson');
    const csv = await timeApiExport(apiUrl, 'csv');
    if (ndjson.records !== raw.records || csv.records !== raw.records) {
      throw new Error(
        `the export and the raw walk disagree: ndjson ${ndjson.records}, csv ${csv.records}, raw ${raw.records}`,
      );
    }
    return { ndjson, csv, raw, apiRssMb: peak };
  } finally {
    clearInterval(sampler);
  }
}
