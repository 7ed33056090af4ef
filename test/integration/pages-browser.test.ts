// The pages in a real browser (headless Chromium): the API reference renders every operation, and the explorer
// does what a person would do with it — suggestions, detail, facets, charts — with the API's own numbers.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { buildOpenApiSpec } from '../../src/operations/openApi.js';
import { useBrowserPage, watchPage } from '../support/browser.js';
import { useSampleApp } from '../support/sampleApp.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { listed } from '../support/sampleOracle.js';
import { foldText } from '../../indexContract/text/fold.js';

// What the callbacks given to page.evaluate use of the browser (they run there; TypeScript checks them here).
declare const window: unknown;
declare const document: {
  getElementById(id: string): { textContent: string | null; hasAttribute(name: string): boolean } | null;
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
  activeElement: { id: string; tagName: string; closest(selector: string): unknown } | null;
};

/** The explorer's page size (public/explore.js, PER_PAGE): not in its address, so the tests name it. */
const EXPLORER_PER_PAGE = 10;

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
    // How many records have a word with each prefix: counted once, not inside the sort's comparisons.
    const prefixesOf = new Map(
      listed.map((r) => [r, new Set(words(r.project_name).map((w) => w.slice(0, 3)))]),
    );
    const sharing = new Map<string, number>();
    for (const prefixes of prefixesOf.values())
      for (const prefix of prefixes) sharing.set(prefix, (sharing.get(prefix) ?? 0) + 1);
    const [record, prefix] =
      listed
        .flatMap((r) => [...(prefixesOf.get(r) ?? [])].map((p) => [r, p] as const))
        .sort((a, b) => (sharing.get(a[1]) ?? 0) - (sharing.get(b[1]) ?? 0))[0] ?? [];
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
    // The OCDS record of the same PPA, linked as "OCDS record", answers a record package of its ocid.
    const ocds = page().getByRole('link', { name: 'OCDS record' });
    const href = new URL((await ocds.getAttribute('href')) ?? '', app().url).href;
    expect(href).to.equal(`${app().url}/api/v1/ppas/${record?.slug}/ocds`);
    const recordPackage = await api<{ records: { ocid: string }[] }>(new URL(href).pathname);
    expect(recordPackage.records[0]?.ocid).to.equal(`ocds-unregistered-${record?.slug}`);
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
      // With a pivot shown, so that the roll-up's controls, chart and table are checked too.
      await checked.goto(`${app().url}/?group_by=country,technology`);
      await checked.waitForSelector('#results li');
      await checked.waitForSelector('#groups-table tbody tr');
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
  // ---- the search in the page's address ----------------------------------------------------------------------

  type List = { data: { slug: string }[]; meta: { total: number } };
  /** The slugs the API lists for these parameters, at the explorer's page size. */
  const apiSlugs = async (query: string) =>
    (await api<List>(`/api/v1/ppas?${query}&per_page=${EXPLORER_PER_PAGE}`)).data.map((item) => item.slug);

  /**
   * The slugs the page shows once it shows `expected` and is not loading (or, after 15 s, whatever it shows):
   * a page that shows another search's results fails the comparison that follows.
   */
  const shownSlugs = async (shown: Page, expected: string[]): Promise<string[]> => {
    // Functions without inner named ones (tsx would wrap those in a helper the page lacks); the page's CSP
    // forbids a string here (waitForFunction evaluates it with eval).
    await shown
      .waitForFunction(
        (want) =>
          !document.getElementById('results-section')?.hasAttribute('aria-busy') &&
          JSON.stringify(
            Array.from(document.querySelectorAll('#results button[data-slug]'), (b) =>
              b.getAttribute('data-slug'),
            ),
          ) === want,
        JSON.stringify(expected),
        { timeout: 15_000 },
      )
      .catch(() => undefined);
    return shown.evaluate(() =>
      Array.from(
        document.querySelectorAll('#results button[data-slug]'),
        (b) => b.getAttribute('data-slug') ?? '',
      ),
    );
  };
  /** The page's address as sorted [name, value] pairs (order is not part of the contract). */
  const queryOf = (url: string) => [...new URL(url).searchParams.entries()].sort();
  const facetBox = (shown: Page, name: string, value: string) =>
    shown.locator(`input[name=facet-${name}][value="${value}"]`);

  /** A word many project names share, and the technology most of those have (both from the sample). */
  const wordAndTechnology = (word: string) => {
    const counts = new Map<string, number>();
    for (const record of listed.filter((r) => foldText(r.project_name).includes(word))) {
      counts.set(record.technology, (counts.get(record.technology) ?? 0) + 1);
    }
    const [technology] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [''];
    return { word, technology };
  };

  it('a shared address opens on its search: the form shows it and the results are the API’s for it', async () => {
    const { word, technology } = wordAndTechnology('power');
    const search = `q=${word}&technology=${technology}`;
    const total = (await api<List>(`/api/v1/ppas?${search}&per_page=1`)).meta.total;
    expect(total, 'the search has a second page').to.be.greaterThan(EXPLORER_PER_PAGE);
    const pageTwo = await apiSlugs(`${search}&page=2`);
    const pageOne = await apiSlugs(search);
    const unfiltered = await apiSlugs('page=2');
    expect(pageTwo).to.not.deep.equal(pageOne);
    expect(pageTwo).to.not.deep.equal(unfiltered);

    // A fresh page of its own, as someone the link was sent to opens it.
    const shared = await browser().newPage({ viewport: { width: 1280, height: 1800 } });
    const watch = watchPage(shared, app().url);
    try {
      await shared.goto(`${app().url}/?${search}&page=2`);
      expect(await shownSlugs(shared, pageTwo)).to.deep.equal(pageTwo);
      expect(await shared.locator('#q').inputValue()).to.equal(word);
      expect(await facetBox(shared, 'technology', technology).isChecked()).to.equal(true);
      expect(await shared.locator('#page-info').textContent()).to.match(/^Page 2 of /);

      // Another page is another entry: Previous shows page 1, Back page 2 again.
      await shared.locator('#prev').click();
      expect(await shownSlugs(shared, pageOne)).to.deep.equal(pageOne);
      expect(queryOf(shared.url())).to.deep.equal(queryOf(`${app().url}/?${search}`));
      await shared.goBack();
      expect(await shownSlugs(shared, pageTwo)).to.deep.equal(pageTwo);
      expect(queryOf(shared.url())).to.deep.equal(queryOf(`${app().url}/?${search}&page=2`));
    } finally {
      await shared.close();
    }
    expect(watch.errors, 'console errors').to.deep.equal([]);
    expect(watch.foreignRequests, 'requests to another origin').to.deep.equal([]);
  });

  it('the search syntax line sits under the box; a precise q typed there is the API’s, and the address keeps it', async () => {
    expect(await page().locator('#q').getAttribute('aria-describedby')).to.equal('q-syntax');
    const line = (await page().locator('#q-syntax').textContent()) ?? '';
    for (const form of ['"kafue gorge"', '-sinohydro', 'OR', 'developer:', 'name:', 'location:', 'code:']) {
      expect(line, form).to.include(form);
    }
    const { word } = wordAndTechnology('power');
    const precise = `"${word}" OR solar -coal`;
    const expected = await apiSlugs(`q=${encodeURIComponent(precise)}`);
    expect(expected.length).to.be.greaterThan(0);
    await page().locator('#q').fill(precise);
    await page().locator('#q').press('Enter');
    expect(await shownSlugs(page(), expected)).to.deep.equal(expected);
    expect(queryOf(page().url())).to.deep.equal([['q', precise]]);
    // Opened from the address, it is the same search.
    await page().goto(page().url());
    expect(await shownSlugs(page(), expected)).to.deep.equal(expected);
    expect(await page().locator('#q').inputValue()).to.equal(precise);
  });

  it('unknown parameters and invalid values in the address are left out; the rest of the search holds', async () => {
    const { word, technology } = wordAndTechnology('power');
    const expected = await apiSlugs(`q=${word}&technology=${technology}`);
    expect(expected).to.not.deep.equal(await apiSlugs(`q=${word}`));
    await page().goto(
      `${app().url}/?q=${word}&technology=Not%20a%20token,${technology}&page=abc&year=nineteen` +
        `&sort=relevance&per_page=7&facets=nope&utm_source=mail`,
    );
    expect(await shownSlugs(page(), expected)).to.deep.equal(expected);
    expect(await page().locator('#message').textContent()).to.equal('');
    // The address keeps what the page searched for, and nothing else.
    expect(queryOf(page().url())).to.deep.equal([
      ['q', word],
      ['technology', technology],
    ]);
  });

  it('Back and Forward walk the searches made from the form, one entry per search, not per keystroke', async () => {
    const a = wordAndTechnology('plant');
    const b = wordAndTechnology('power');
    const slugsA = await apiSlugs(`q=${a.word}`);
    const slugsAFiltered = await apiSlugs(`q=${a.word}&technology=${a.technology}`);
    const slugsB = await apiSlugs(`q=${b.word}&technology=${a.technology}`);
    expect(new Set([slugsA, slugsAFiltered, slugsB].map((slugs) => JSON.stringify(slugs))).size).to.equal(3);
    const historyLength = async () => (await page().evaluate('history.length')) as number;

    // Search A: typed letter by letter, then submitted: one new entry.
    const before = await historyLength();
    await page().locator('#q').pressSequentially(a.word, { delay: 30 });
    expect(await historyLength(), 'no entry per keystroke').to.equal(before);
    await page().locator('#q').press('Enter');
    expect(await shownSlugs(page(), slugsA)).to.deep.equal(slugsA);
    expect(await historyLength()).to.equal(before + 1);
    const urlA = page().url();
    expect(queryOf(urlA)).to.deep.equal([['q', a.word]]);
    // A facet narrows it: another entry.
    await facetBox(page(), 'technology', a.technology).check();
    expect(await shownSlugs(page(), slugsAFiltered)).to.deep.equal(slugsAFiltered);
    const urlAFiltered = page().url();
    const feedAFiltered = await page().locator('#follow').getAttribute('href');
    // Search B: another text, the facet kept.
    await page().locator('#q').fill(b.word);
    await page().locator('#search-form button[type=submit]').click();
    expect(await shownSlugs(page(), slugsB)).to.deep.equal(slugsB);
    const urlB = page().url();
    expect(queryOf(urlB)).to.deep.equal(queryOf(`${app().url}/?q=${b.word}&technology=${a.technology}`));

    await page().goBack();
    expect(await shownSlugs(page(), slugsAFiltered)).to.deep.equal(slugsAFiltered);
    expect(page().url()).to.equal(urlAFiltered);
    expect(await page().locator('#q').inputValue()).to.equal(a.word);
    expect(await facetBox(page(), 'technology', a.technology).isChecked()).to.equal(true);
    expect(await page().locator('#follow').getAttribute('href')).to.equal(feedAFiltered);

    await page().goBack();
    expect(await shownSlugs(page(), slugsA)).to.deep.equal(slugsA);
    expect(page().url()).to.equal(urlA);
    expect(await facetBox(page(), 'technology', a.technology).isChecked()).to.equal(false);

    await page().goForward();
    await page().goForward();
    expect(await shownSlugs(page(), slugsB)).to.deep.equal(slugsB);
    expect(page().url()).to.equal(urlB);
    expect(await page().locator('#q').inputValue()).to.equal(b.word);
  });

  it('a search that finds nothing shows "Did you mean …?" as a link that runs that search (issue 69)', async () => {
    const typed = 'Mocuba Geothermal banana';
    // The API reads its vocabulary in the background: wait until it offers the rewrite.
    let offered: string | undefined;
    for (let tries = 0; tries < 100 && offered === undefined; tries++) {
      const body = await api<{ meta: { did_you_mean?: { q: string } } }>(
        `/api/v1/ppas?q=${encodeURIComponent(typed)}`,
      );
      offered = body.meta.did_you_mean?.q;
      if (offered === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(offered).to.equal('Mocuba Geothermal');
    await page().goto(`${app().url}/?q=${encodeURIComponent(typed)}`);
    const link = page().locator('#results-summary a');
    await link.waitFor();
    expect(await page().locator('#results-summary').textContent()).to.equal(
      'No PPA matches. Did you mean Mocuba Geothermal?',
    );
    await link.click();
    const expected = await apiSlugs(`q=${encodeURIComponent(offered!)}`);
    expect(expected.length).to.be.above(0);
    expect(await shownSlugs(page(), expected)).to.deep.equal(expected);
    expect(await page().locator('#q').inputValue()).to.equal(offered);
    expect(queryOf(page().url())).to.deep.equal(queryOf(`${app().url}/?q=${encodeURIComponent(offered!)}`));
  });

  it('“Follow this search” and the head’s feed link carry exactly the filters and q, never page or order', async () => {
    const feedOf = async () => {
      const follow = page().locator('#follow');
      const href = (await follow.getAttribute('href')) ?? '';
      expect(await follow.getAttribute('type')).to.equal('application/atom+xml');
      expect(await follow.isVisible()).to.equal(true);
      const alternate = page().locator('head link[rel=alternate][type="application/atom+xml"]');
      expect(await alternate.getAttribute('href')).to.equal(href);
      expect(await alternate.getAttribute('title'))
        .to.be.a('string')
        .and.not.equal('');
      const url = new URL(href, app().url);
      expect(href.startsWith('/'), 'same origin, relative').to.equal(true);
      return { path: url.pathname, query: [...url.searchParams.entries()].sort() };
    };
    // No search: the feed of everything.
    expect(await feedOf()).to.deep.equal({ path: '/api/v1/ppas/feed', query: [] });
    // Each search moves it: a tariff box checked adds that tariff.
    const tariff = page().locator('input[name=facet-tariff]').first();
    const tariffValue = (await tariff.getAttribute('value')) ?? '';
    await tariff.check();
    await page().waitForFunction(
      (value) => (document.querySelector('#follow')?.getAttribute('href') ?? '').endsWith(`?tariff=${value}`),
      tariffValue,
    );
    expect(await feedOf()).to.deep.equal({ path: '/api/v1/ppas/feed', query: [['tariff', tariffValue]] });

    // Every filter the API takes, with an order and a page the feed must not carry.
    const record = listed.find((r) => (r.risk_features ?? []).length > 0 && r.financial_close_year);
    const risk = record?.risk_features?.[0] ?? '';
    const year = String(record?.financial_close_year);
    await page().goto(
      `${app().url}/?q=power%20plant&technology=${record?.technology}&risk_features[]=${risk}&year=${year}` +
        `&developer=a&min_capacity=1&max_capacity=90000&sort=name_asc&page=2`,
    );
    await page().waitForFunction(
      () => !document.getElementById('results-section')?.hasAttribute('aria-busy'),
    );
    expect(await page().locator('#message').textContent(), 'the API took every filter').to.equal('');
    expect(await page().locator('#sort').inputValue()).to.equal('name_asc');
    expect(await page().locator('#link-filters').textContent()).to.contain('developer contains “a”');
    expect(await feedOf()).to.deep.equal({
      path: '/api/v1/ppas/feed',
      query: [
        ['developer', 'a'],
        ['max_capacity', '90000'],
        ['min_capacity', '1'],
        ['q', 'power plant'],
        ['risk_features[]', risk],
        ['technology', record?.technology ?? ''],
        ['year', year],
      ],
    });
  });

  it('an offtaker from a PPA to its page (the API’s figures, spellings, partners) and back to its PPAs (issue 75)', async () => {
    type PartyPage = {
      data: {
        id: string;
        name: string;
        ppas: number;
        aliases: { name: string }[];
        partners: { name: string }[];
      };
    };
    const ppa = (await api<{ data: { slug: string; project_name: string }[] }>('/api/v1/ppas?per_page=1'))
      .data[0]!;
    const ocds = await api<{ records: { compiledRelease: { buyer: { id: string; name: string } } }[] }>(
      `/api/v1/ppas/${ppa.slug}/ocds`,
    );
    const buyer = ocds.records[0]!.compiledRelease.buyer;
    const party = (await api<PartyPage>(`/api/v1/parties/${buyer.id}`)).data;

    await page().goto(`${app().url}/`);
    await page().locator(`#results button[data-slug="${ppa.slug}"]`).click();
    await page().locator('#detail-heading', { hasText: ppa.project_name }).waitFor();
    await page().locator(`#detail-parties button[data-party="${buyer.id}"]`).click();
    await page().locator('#party-heading', { hasText: party.name }).waitFor();
    expect(await page().locator('#party-heading').textContent()).to.equal(party.name);
    const ppasTerm = page().locator('#party-fields dt', { hasText: /^PPAs$/ });
    expect(await ppasTerm.locator('xpath=following-sibling::dd[1]').textContent()).to.equal(
      String(party.ppas),
    );
    expect(await page().locator('#party-aliases li').count()).to.equal(party.aliases.length);
    expect(await page().locator('#party-partners button').allTextContents()).to.deep.equal(
      party.partners.map((partner) => partner.name),
    );

    await page().locator('#party-ppas').click();
    await page().waitForURL(`${app().url}/?party=${buyer.id}`);
    await page().locator('#results li').first().waitFor();
    const listed = await api<{ meta: { total: number } }>(`/api/v1/ppas?party=${buyer.id}&per_page=1`);
    expect(listed.meta.total).to.equal(party.ppas);
    expect(await page().locator('#results-summary').textContent()).to.match(
      new RegExp(`^${party.ppas} PPAs? match`),
    );
    expect(await page().locator('#link-filters').textContent()).to.include(buyer.id);

    // The parties search finds it by name.
    await page().locator('#parties-q').fill(party.name);
    await page().locator('#parties-form button[type=submit]').click();
    await page().locator(`#parties-results button[data-party="${buyer.id}"]`).first().waitFor();
  });

  it('a flagged PPA shows its red flags as short labels, and its detail the evidence sentence (issue 74)', async () => {
    type Flagged = { data: { slug: string; project_name: string; flags: string[] }[] };
    const first = (await api<Flagged>('/api/v1/ppas?sort=flags_desc&per_page=1')).data[0]!;
    expect(first.flags.length, 'the most flagged PPA raises a flag').to.be.greaterThan(0);
    const methodology = await api<{ data: { indicators: { code: string; title: string }[] } }>(
      '/api/v1/flags',
    );
    const title = (code: string) =>
      methodology.data.indicators.find((indicator) => indicator.code === code)!.title;
    const detail = await api<{ data: { flag_evidence: { code: string; explanation: string }[] } }>(
      `/api/v1/ppas/${first.slug}`,
    );
    const flaggedCount = (
      await api<{ meta: { facets: { flags: { value: string; count: number }[] } } }>(
        '/api/v1/ppas?facets=flags&per_page=1',
      )
    ).meta.facets.flags.find((bucket) => bucket.value === first.flags[0])!.count;

    await page().goto(`${app().url}/?sort=flags_desc`);
    const item = page().locator('#results li', { has: page().locator(`button[data-slug="${first.slug}"]`) });
    await item.waitFor();
    expect(await item.locator('.flag-label').allTextContents()).to.deep.equal(first.flags.map(title));
    // The flags filter, with the API's counts.
    const box = facetBox(page(), 'flags', first.flags[0]!);
    expect(await page().locator('label', { has: box }).textContent()).to.match(
      new RegExp(`\\(${flaggedCount}\\)$`),
    );

    await item.locator(`button[data-slug="${first.slug}"]`).click();
    await page().locator('#detail-heading', { hasText: first.project_name }).waitFor();
    const evidence = detail.data.flag_evidence[0]!;
    const term = page().locator('#detail-fields dt', { hasText: `Red flag: ${title(evidence.code)}` });
    expect(await term.count()).to.equal(1);
    expect(await term.locator('xpath=following-sibling::dd[1]').textContent()).to.equal(evidence.explanation);
  });
});

describe('the explorer’s roll-ups in a real browser (issue 67)', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('explorer-groups');
  const { page } = useBrowserPage(() => app().url, {
    height: 1800,
    open: async (opened) => {
      await opened.goto(`${app().url}/`);
      await opened.waitForSelector('#results li');
    },
  });

  type Group = { key: string | number | null; ppas: number; capacity_mw: number };
  type Groups = { data: { groups: (Group & { groups: Group[] })[] } };
  const groupsOf = async (query: string) => {
    const response = await fetch(`${app().url}/api/v1/ppas/statistics?${query}`);
    expect(response.status, query).to.equal(200);
    return ((await response.json()) as Groups).data.groups;
  };
  /** A group as the table shows it (public/explore.js: groupKeyText, figureTexts): key, PPAs, capacity. */
  const shownAs = (group: Group, key: (value: string) => string = (value) => value) => [
    group.key === null ? '(not given)' : key(String(group.key)),
    group.ppas.toLocaleString('en'),
    group.capacity_mw.toLocaleString('en'),
  ];
  /** The table's rows, each as the texts of its cells, once the roll-up is on screen. */
  const tableRows = async (shown: Page) => {
    await shown.locator('#groups-table tbody tr').first().waitFor();
    return shown.$$eval('#groups-table tbody tr', (rows) =>
      rows.map((row) =>
        Array.from(
          (row as unknown as { children: ArrayLike<{ textContent: string | null }> }).children,
          (cell) => cell.textContent ?? '',
        ),
      ),
    );
  };
  const sortedQuery = (url: URL) => [...url.searchParams.entries()].sort();

  it('grouping by offtaker shows the API’s groups; the address keeps it, a reload shows the same table, Back undoes it', async () => {
    const groups = await groupsOf('group_by=offtaker');
    expect(groups.length, 'the sample has offtakers').to.be.greaterThan(1);
    await page().selectOption('#group-by', 'offtaker');
    const rows = await tableRows(page());
    expect(rows[0]?.slice(0, 3)).to.deep.equal(shownAs(groups[0]!));
    expect(rows).to.have.length(groups.length);
    expect(new URL(page().url()).searchParams.get('group_by')).to.equal('offtaker');

    // The CSV link is the statistics request shown beside the charts, with format=csv; it answers the groups.
    const stats = new URL((await page().locator('#stats-url').getAttribute('href')) ?? '', app().url);
    const csv = new URL((await page().locator('#groups-csv').getAttribute('href')) ?? '', app().url);
    expect(stats.searchParams.get('group_by')).to.equal('offtaker');
    expect(csv.pathname).to.equal(stats.pathname);
    expect(sortedQuery(csv)).to.deep.equal([...sortedQuery(stats), ['format', 'csv']].sort());
    const answer = await fetch(csv);
    expect(answer.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const lines = (await answer.text()).trimEnd().split('\r\n');
    expect(lines[0]?.startsWith('offtaker,ppas,capacity_mw,')).to.equal(true);
    expect(lines).to.have.length(groups.length + 1);

    await page().reload();
    expect(await tableRows(page())).to.deep.equal(rows);
    expect(await page().locator('#group-by').inputValue()).to.equal('offtaker');

    await page().goBack();
    await page().waitForFunction(() => document.getElementById('groups-view')?.hasAttribute('hidden'));
    expect(new URL(page().url()).searchParams.get('group_by')).to.equal(null);
    expect(await page().locator('#group-by').inputValue()).to.equal('');
  });

  it('a pivot from the address: each group of the first dimension with its pairs under it, as the API gives them', async () => {
    const groups = await groupsOf('group_by=country,technology&group_sort=ppas_desc');
    const outer = groups[0]!;
    const country = (code: string) => new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
    const technology = (value: string) => value.replaceAll('_', ' ');
    await page().goto(`${app().url}/?group_by=country,technology&group_sort=ppas_desc`);
    const rows = await tableRows(page());
    expect(rows[0]?.slice(0, 3)).to.deep.equal(shownAs(outer, country));
    expect(rows[1]?.slice(0, 3)).to.deep.equal(shownAs(outer.groups[0]!, technology));
    expect(await page().locator('#group-then').inputValue()).to.equal('technology');
    expect(await page().locator('#group-sort').inputValue()).to.equal('ppas_desc');
    const datasets = (await page().evaluate('Chart.getChart("chart-groups").data.datasets.length')) as number;
    expect(datasets, 'stacked by technology').to.be.greaterThan(1);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page()
      .locator('#groups')
      .screenshot({ path: new URL('explorer-groups.png', OUTPUT_DIR).pathname });
  });
});

describe('the explorer marks why a result matched (issue 46)', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('explorer-highlights');
  const directory = mkdtempSync(join(tmpdir(), 'explorer-highlights-'));
  const NAME = 'Zyxqua <b>Bold</b> Solar Park';
  // No "/" in it: the roll-up would count the parts on either side as two consortium members.
  const DEVELOPER = 'Qorvex <img src=x onerror=alert(1)> Power';
  let app: TestApp | undefined;

  before(async () => {
    // A few sample records, one of them renamed to hold markup: the explorer must show it as text.
    const lines = readFileSync(SAMPLE_PATH, 'utf8').split('\n').filter(Boolean);
    const records = lines
      .map((line) => JSON.parse(line) as PpaRecord)
      .filter((record) => record.published && record.active)
      .slice(0, 5);
    records[0] = { ...records[0]!, project_name: NAME, developer: DEVELOPER };
    const source = join(directory, 'source.ndjson');
    writeFileSync(source, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    await indexSample(client, alias, source);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const { page } = useBrowserPage(() => app!.url, { height: 1200 });

  it('a search shows <mark> around the matched words, and a value holding <b> as text', async () => {
    await page().goto(`${app!.url}/?q=${encodeURIComponent('zyxqua bold')}`);
    const result = page().locator('#results button[data-slug]').first();
    await result.locator('mark').first().waitFor();
    expect(await result.textContent()).to.equal(NAME);
    expect(await result.locator('mark').allTextContents()).to.deep.equal(['Zyxqua', 'Bold']);
    expect(await page().locator('#results b').count()).to.equal(0);
    expect(await page().locator('#list-url code').textContent()).to.include('highlight=true');
    // Suggestions mark the name too, as text.
    await page().locator('#q').fill('');
    await page().locator('#q').pressSequentially('zyxq', { delay: 30 });
    const option = page().locator('#suggestions [role=option]').first();
    await option.locator('mark').first().waitFor();
    expect(await option.locator('mark').allTextContents()).to.deep.equal(['Zyxqua']);
    expect(await page().locator('#suggestions b').count()).to.equal(0);
  });

  it('a phrase search marks the phrase as one <mark>, and the address keeps it', async () => {
    const q = 'zyxqua "solar park" -zzzz';
    await page().goto(`${app!.url}/?q=${encodeURIComponent(q)}`);
    const result = page().locator('#results button[data-slug]').first();
    await result.locator('mark').first().waitFor();
    expect(await result.locator('mark').allTextContents()).to.deep.equal(['Zyxqua', 'Solar Park']);
    expect(new URL(page().url()).searchParams.get('q')).to.equal(q);
    expect(await page().locator('#q').inputValue()).to.equal(q);
  });

  it('a roll-up shows a group’s name holding <img> as text', async () => {
    await page().goto(`${app!.url}/?group_by=developer`);
    const row = page().locator('#groups-table tbody tr', { hasText: DEVELOPER });
    await row.waitFor();
    expect(await row.locator('th').textContent()).to.equal(DEVELOPER);
    expect(await page().locator('#groups-table img').count()).to.equal(0);
  });

  it('facets and results show country names, not codes', async () => {
    await page().goto(`${app!.url}/`);
    await page().waitForSelector('#results li');
    const labels = await page()
      .locator('input[name=facet-country]')
      .evaluateAll((inputs) =>
        inputs.map(
          (input) =>
            (input as unknown as { parentElement: { textContent: string } }).parentElement.textContent,
        ),
      );
    expect(labels.length).to.be.above(0);
    for (const text of labels) expect(text).to.not.match(/^[A-Z]{2} \(/);
    const facts = await page().locator('#results .facts').allTextContents();
    for (const text of facts) expect(text).to.not.match(/ · [A-Z]{2}( · |$)/);
  });
});
