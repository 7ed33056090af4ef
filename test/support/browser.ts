// Headless Chromium for the page tests, driven by playwright-core. Debian's chromium (apt-get install chromium);
// CHROMIUM_PATH names another binary. Without one the tests are pending outside CI, and fail under CI=true.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const MISSING_CHROMIUM =
  'Chromium is not installed (Debian: apt-get install chromium; or set CHROMIUM_PATH)';

export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path): path is string => Boolean(path) && existsSync(path as string));
}

/** In a `before` hook: the browser, or a pending suite (outside CI) / a failure (CI=true) when Chromium is missing. */
export async function launchChromium(context: Mocha.Context): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    if (process.env.CI === 'true') throw new Error(MISSING_CHROMIUM);
    const suite = context.test?.parent;
    if (suite) suite.title += ` — PENDING: ${MISSING_CHROMIUM}`;
    context.skip();
  }
  // The flags keep Chromium from calling out (updates, sync, field trials): this machine's network is closed,
  // and a page test must see only the requests the page makes.
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageWatch {
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** URLs of requests to any origin but `origin`. */
  foreignRequests: string[];
}

/** Records what a page does that a page test must forbid. */
export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { errors: [], foreignRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) {
      watch.foreignRequests.push(url);
    }
  });
  return watch;
}

/**
 * Inside a describe: one Chromium for the suite, a fresh page for each test (opened on `open` when given), and
 * after each test the checks every page test shares: no console error, no request to another origin.
 */
export function useBrowserPage(
  origin: () => string,
  options: { height: number; open?: (page: Page) => Promise<void> },
): { browser: () => Browser; page: () => Page } {
  let browser: Browser | undefined;
  let page: Page | undefined;
  let watch: PageWatch | undefined;

  before(async function () {
    browser = await launchChromium(this);
  });
  after(async () => browser?.close());

  beforeEach(async () => {
    page = await (browser as Browser).newPage({ viewport: { width: 1280, height: options.height } });
    watch = watchPage(page, origin());
    await options.open?.(page);
  });
  afterEach(async () => {
    await page?.close();
    if (!watch) return;
    if (watch.errors.length > 0) throw new Error(`console errors: ${watch.errors.join('; ')}`);
    if (watch.foreignRequests.length > 0) {
      throw new Error(`requests to another origin: ${watch.foreignRequests.join(', ')}`);
    }
  });

  return {
    browser: () => browser as Browser,
    page: () => page as Page,
  };
}
