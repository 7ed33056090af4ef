// The pages in a real browser (headless Chromium): the API reference renders every operation, and the explorer
// does what a person would do with it — suggestions, detail, facets, charts — with the API's own numbers.
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildOpenApiSpec } from '../../src/openapi/spec.js';
import { useBrowserPage } from '../support/browser.js';
import { useSampleApp } from '../support/sampleApp.js';
import { listed } from '../support/sampleOracle.js';
import { foldText } from '../../indexContract/text/fold.js';

// What the callbacks given to page.evaluate use of the browser (they run there; TypeScript checks them here).
declare const window: unknown;
declare const document: {
  getElementById(id: string): { textContent: string | null } | null;
  activeElement: { id: string; tagName: string; closest(selector: string): unknown } | null;
};

const OUTPUT_DIR = new URL('../../test-output/', import.meta.url);
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe('pages in a real browser', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('pages-browser');
  const { page } = useBrowserPage(() => app().url, { height: 1600 });

  it('the API reference renders every operation of the OpenAPI document', async () => {
    await page().goto(`${app().url}/api/v1/docs`);
    await page().waitForSelector('.opblock', { timeout: 30_000 });
    const rendered = await page().$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.trim().toUpperCase()} ${path}`;
      }),
    );
    const spec = buildOpenApiSpec() as unknown as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'].includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).to.be.greaterThan(4);
    expect(rendered).to.have.members(operations);
  });
});

describe('the explorer in a real browser', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('explorer-browser');
  const { browser, page } = useBrowserPage(() => app().url, {
    height: 1800,
    open: async (opened) => {
      await opened.goto(`${app().url}/`);
      await opened.waitForSelector('#results li');
    },
  });

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${app().url}${path}`);
    expect(response.status, path).to.equal(200);
    return (await response.json()) as T;
  };

  it('three letters typed show a project among the suggestions; choosing it opens its detail', async () => {
    // The listed record whose three-letter word prefix the fewest other records share.
    const words = (name: string) =>
      foldText(name)
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length >= 3);
    const sharing = (prefix: string) =>
      listed.filter((r) => words(r.project_name).some((w) => w.startsWith(prefix))).length;
    const [record, prefix] =
      listed
        .flatMap((r) => words(r.project_name).map((w) => [r, w.slice(0, 3)] as const))
        .sort((a, b) => sharing(a[1]) - sharing(b[1]))[0] ?? [];
    expect(record, 'a sample record').to.not.equal(undefined);

    await page()
      .locator('#q')
      .pressSequentially(prefix ?? '', { delay: 30 });
    const option = page().locator('#suggestions [role=option]', { hasText: record?.project_name ?? '' });
    await option.first().waitFor();
    await option.first().click();
    await page()
      .locator('#detail-heading', { hasText: record?.project_name ?? '' })
      .waitFor();
    expect(await page().locator('#detail-heading').textContent()).to.equal(record?.project_name);
    expect(await page().locator('#detail').isVisible()).to.equal(true);
    expect(await page().locator('#detail-url code').textContent()).to.equal(
      `${app().url}/api/v1/ppas/${record?.slug}`,
    );
  });

  it('a technology facet narrows the list to exactly the API’s total, and the charts follow with its numbers', async () => {
    const technology = listed[0]?.technology ?? '';
    const expected = await api<{ meta: { total: number } }>(
      `/api/v1/ppas?technology=${technology}&per_page=1`,
    );
    const box = page().locator(`input[name=facet-technology][value="${technology}"]`);
    const countInLabel = await box.locator('xpath=..').textContent();
    expect(countInLabel).to.contain(`(${expected.meta.total})`);
    await box.check();
    await page().waitForFunction(
      (total) => document.getElementById('results-summary')?.textContent?.startsWith(`${total} PPA`),
      expected.meta.total,
    );
    expect(await page().locator('#list-url code').textContent()).to.contain(`technology=${technology}`);
    // The download links follow the filters too, and what they give is the API's export.
    const csvHref = (await page().locator('#export-csv').getAttribute('href')) ?? '';
    expect(csvHref).to.equal(`/api/v1/ppas/export?technology=${technology}&format=csv`);
    const exported = await (await fetch(`${app().url}${csvHref}`)).text();
    expect(exported.trimEnd().split('\r\n')).to.have.length(expected.meta.total + 1);

    type Statistics = {
      data: {
        capacity_by_technology: { technology: string; capacity_mw: number }[];
        capacity_by_year: { year: number | null; capacity_mw: number }[];
        tariff_mix: { tariff: string; ppas: number }[];
        fiscal_exposure: { by_risk_feature: { risk_feature: string; capacity_mw: number }[] };
      };
    };
    const { data } = await api<Statistics>(`/api/v1/ppas/statistics?technology=${technology}`);
    await page().waitForFunction((count) => {
      const chart = (
        window as unknown as { Chart: { getChart(id: string): { data: { labels: unknown[] } } } }
      ).Chart;
      return chart.getChart('chart-technology')?.data.labels.length === count;
    }, data.capacity_by_technology.length);
    // A string, not a function: tsx's helpers (__name) would not exist in the page.
    const charted = (await page().evaluate(`(() => {
      const values = (id) => Chart.getChart(id).data.datasets[0].data;
      return {
        technology: values('chart-technology'),
        year: values('chart-year'),
        tariff: values('chart-tariff'),
        fiscal: values('chart-fiscal'),
      };
    })()`)) as Record<string, number[]>;
    expect(charted).to.deep.equal({
      technology: data.capacity_by_technology.map((row) => row.capacity_mw),
      year: data.capacity_by_year.map((row) => row.capacity_mw),
      tariff: data.tariff_mix.map((row) => row.ppas),
      fiscal: data.fiscal_exposure.by_risk_feature.map((row) => row.capacity_mw),
    });
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page().screenshot({ path: new URL('explorer.png', OUTPUT_DIR).pathname, fullPage: true });
  });

  it('keyboard alone reaches the search box, the facets and the results', async () => {
    const reached = new Set<string>();
    for (let i = 0; i < 150 && reached.size < 3; i++) {
      await page().keyboard.press('Tab');
      const where = await page().evaluate(() => {
        const active = document.activeElement;
        if (!active) return '';
        if (active.id === 'q') return 'search';
        if (active.closest('#facets') && active.tagName === 'INPUT') return 'facet';
        if (active.closest('#results')) return 'result';
        return '';
      });
      if (where) reached.add(where);
    }
    expect([...reached].sort()).to.deep.equal(['facet', 'result', 'search']);
    // And a result opens with the keyboard.
    await page().locator('#results button').first().focus();
    await page().keyboard.press('Enter');
    await page().locator('#detail').waitFor({ state: 'visible' });
  });

  it('axe-core finds no serious or critical accessibility violation', async () => {
    // A context that lets the test inject axe-core despite the page's CSP (the page itself is unchanged).
    const context = await browser().newContext({ bypassCSP: true });
    const checked = await context.newPage();
    try {
      await checked.goto(`${app().url}/`);
      await checked.waitForSelector('#results li');
      await checked.addScriptTag({ path: AXE_PATH });
      const violations = await checked.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
          }
        ).axe;
        const result = await axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
