// The console (apps/console) as a tenant uses it: built by Vite into a folder of its own, served
// by the real API under /console, driven in a real headless Chromium (playwright-core with the
// Chromium shipped in @sparticuz/chromium: nothing but Node needed). Screenshots at desktop and
// phone width go to test-artifacts/console/ (git-ignored) for a person to look at.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { rawRequest } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { launchBrowser } from './support/browser';
import { startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const ROOT = path.resolve(__dirname, '..');

const ARTIFACTS = path.join(ROOT, 'test-artifacts/console');
const HOST = 'console.example.com';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Waits on the platform's real work (an import, a build) as the page shows it. */
const WORK_TIMEOUT_MS = 90_000;

/** Products in English and German, each pair an hreflang cluster; one line for another host. */
function uploadFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 30; i++) {
    const en = `https://${HOST}/products/${i}`;
    const de = `https://${HOST}/de/produkte/${i}`;
    const alternates = [
      { hreflang: 'en', href: en },
      { hreflang: 'de', href: de },
      { hreflang: 'x-default', href: en },
    ];
    lines.push(JSON.stringify({ loc: en, lastmod: '2026-11-01', hreflang: 'en', alternates, section: 'products' }));
    lines.push(JSON.stringify({ loc: de, lastmod: '2026-11-01', hreflang: 'de', alternates, section: 'products' }));
  }
  lines.splice(7, 0, JSON.stringify({ loc: 'https://elsewhere.example.org/page' }));
  return `${lines.join('\n')}\n`;
}

describe('the console', () => {
  let platform: Platform;
  let buildDir: string;
  let browser: Browser;
  let tenantKey: string;
  const problems: string[] = [];
  /** Answers outside 2xx: each one the test provoked on purpose, none else. */
  const refusals: string[] = [];

  /** A browser context of its own (sessionStorage too), failing the test on any console error. */
  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Chromium logs every 4xx answer as a console error: those are checked as refusals instead.
    const refusal = /^Failed to load resource: the server responded with a status of 4\d\d/;
    page.on(
      'console',
      (message) =>
        message.type() === 'error' && !refusal.test(message.text()) && problems.push(`console: ${message.text()}`),
    );
    page.on('response', (response) => {
      if (response.status() >= 400)
        refusals.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    await page.goto(`${platform.apiUrl}/console/`);
    return { context, page };
  }

  /** People sign in with an email by default; programs' keys are one click away. */
  const useKey = (page: Page) => page.getByRole('button', { name: 'Use an API key instead' }).click();

  async function signIn(page: Page): Promise<void> {
    if (!(await page.getByLabel('API key').isVisible())) await useKey(page);
    await page.getByLabel('API key').fill(tenantKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  /** Every form control has a label, every button a name: what a screen reader announces. */
  async function unlabelled(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const missing: string[] = [];
      for (const control of Array.from(document.querySelectorAll<HTMLInputElement>('input, select, textarea'))) {
        if (!control.labels?.length && !control.getAttribute('aria-label'))
          missing.push(control.outerHTML.slice(0, 80));
      }
      for (const button of Array.from(document.querySelectorAll('button'))) {
        if (!(button.textContent ?? '').trim() && !button.getAttribute('aria-label'))
          missing.push(button.outerHTML.slice(0, 80));
      }
      return missing;
    });
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    buildDir = mkdtempSync(path.join(tmpdir(), 'sitemaps-console-'));
    // As `npm run build` does it, in a process of its own: vitest's NODE_ENV=test would give React's development build.
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build-console.js'), '--out-dir', buildDir], {
      env: childProcessEnv({ NODE_ENV: 'production' }),
    });
    platform = await startPlatform({ CONSOLE_DIR: path.join(buildDir, 'console'), CRAWL_FLUSH_MS: '100' });
    browser = await launchBrowser();
    ({ apiKey: tenantKey } = await createTenant(platform.apiUrl, 'Console'));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('is served by the API under /console, without a key', async () => {
    const redirect = await fetch(`${platform.apiUrl}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/console/');
    const page = await fetch(`${platform.apiUrl}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${platform.apiUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('takes a tenant from sign-in to a published site and finds a URL with its hreflang cluster', async () => {
    const { context, page } = await open(DESKTOP);

    // A wrong key is refused on the field; the right one is kept for the tab.
    await useKey(page);
    await page.getByLabel('API key').fill('not-a-key-0123456789');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This key is not valid').waitFor();
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'desktop-sign-in');
    await signIn(page);
    expect(await page.evaluate(() => sessionStorage.getItem('sitemaps.apiKey'))).toBe(tenantKey);

    // The server's validation error shows on the field, then the site is created.
    await page.getByLabel('Hostname').fill('not a hostname');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.locator('.field.invalid').getByLabel('Hostname').waitFor();
    await page.getByLabel('Hostname').fill(HOST);
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('heading', { level: 1, name: HOST }).waitFor();

    // Upload: live progress, then the summary and the rejected line with its reason.
    await page.getByRole('link', { name: 'Import' }).click();
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'urls.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(uploadFile()) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'Import completed' });
    await summary.waitFor({ timeout: WORK_TIMEOUT_MS });
    expect(await summary.textContent()).toContain('61 lines read, 60 stored, 1 rejected');
    const rejections = page.getByRole('region', { name: 'Rejected lines' }).locator('tbody tr');
    await rejections.first().waitFor();
    expect(await rejections.count()).toBe(1);
    expect(await rejections.first().locator('td').first().textContent()).toBe('8');
    await shot(page, 'desktop-import');

    // Builds: start one and watch it publish; the chart and the stage timings show it.
    await page.getByRole('link', { name: 'Builds' }).click();
    // The list read after the build was queued holds it; the page then polls until it is done.
    const isBuilds = (method: string) => (response: Response) =>
      response.request().method() === method && new URL(response.url()).pathname.endsWith('/builds');
    const queued = page.waitForResponse(isBuilds('POST'));
    await page.getByRole('button', { name: 'Build now' }).click();
    expect((await queued).status()).toBe(202);
    await page.waitForResponse(isBuilds('GET'));
    const states = () => page.locator('tbody .badge').allTextContents();
    await expect
      .poll(states, { timeout: WORK_TIMEOUT_MS })
      .toSatisfy((all: string[]) => all.length > 0 && all.every((state) => state === 'published'));
    await page.getByRole('img', { name: /Durations of the last \d+ builds/ }).waitFor();
    await shot(page, 'desktop-builds');

    // The overview reads the published build and the shards.
    await page.getByRole('link', { name: 'Overview' }).click();
    const urlsPublished = page.locator('.stats div').filter({ hasText: 'URLs published' }).locator('dd');
    await expect.poll(() => urlsPublished.textContent(), { timeout: WORK_TIMEOUT_MS }).toBe('60');
    // The shards come in a request of their own, which may answer after the builds'.
    const sections = page.locator('.stats div').filter({ hasText: 'Sections' }).locator('dd');
    await expect.poll(() => sections.textContent(), { timeout: WORK_TIMEOUT_MS }).toContain('products');
    // The test platform verifies hostnames without proof (development mode).
    expect(await page.locator('.stats div').filter({ hasText: 'Verification' }).locator('dd').textContent()).toBe(
      'verified',
    );
    await shot(page, 'desktop-overview');

    await page.getByRole('link', { name: 'Shards' }).click();
    await page.locator('tbody meter').first().waitFor();
    await shot(page, 'desktop-shards');

    // Crawlers: a fetch claiming Googlebot from an address that is not Google's shows as unverified;
    // no verified crawler has read anything yet, so nothing waits; the stale alert is set here.
    const tenant = apiClient(platform.apiUrl, tenantKey);
    const siteId = (await tenant.get('/v1/sites')).body.items[0].id as string;
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const fetched = await rawRequest(platform.publicUrl, '/sitemap.xml', {
      host: HOST,
      headers: { 'user-agent': googlebot },
    });
    expect(fetched.status).toBe(200);
    await expect
      .poll(async () => (await tenant.get(`/v1/sites/${siteId}/crawls`)).body.days, { timeout: WORK_TIMEOUT_MS })
      .toEqual([expect.objectContaining({ crawler: 'googlebot', verified: false, fetches: 1 })]);
    await page.getByRole('link', { name: 'Crawlers' }).click();
    await page.getByRole('img', { name: /Fetches by crawler in the last 30 days/ }).waitFor();
    expect(await page.getByRole('img', { name: /Fetches by crawler/ }).textContent()).toContain(
      'Googlebot (unverified)',
    );
    await page.getByRole('status').filter({ hasText: 'No verified crawler has read the index yet.' }).waitFor();
    const reads = page.getByRole('table', { name: 'Last verified read of each published file' });
    expect(await reads.locator('tbody tr td:first-child').first().textContent()).toBe('sitemap.xml');
    expect(await reads.locator('tbody tr').first().textContent()).toContain('never read');
    await page.getByLabel('Alert after days unread').fill('7');
    await page.getByRole('button', { name: 'Save alert' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await tenant.get(`/v1/sites/${siteId}`)).body.staleAfterDays).toBe(7);
    await shot(page, 'desktop-crawlers');

    // URL search by prefix, one URL's published data and its hreflang cluster.
    await page.getByRole('link', { name: 'URLs' }).click();
    await page.getByLabel('URLs starting with').fill(`https://${HOST}/de/`);
    await page.getByRole('button', { name: 'Search' }).click();
    const found = page.getByRole('list', { name: 'Matching URLs' }).getByRole('button');
    await expect.poll(() => found.count()).toBe(30);
    expect(await found.allTextContents()).toSatisfy((locs: string[]) =>
      locs.every((loc) => loc.startsWith(`https://${HOST}/de/`)),
    );
    await page.getByRole('button', { name: `https://${HOST}/de/produkte/12`, exact: true }).click();
    const cluster = page.getByRole('table', { name: /Hreflang cluster/ });
    await cluster.waitFor();
    expect(await cluster.locator('tbody tr').allTextContents()).toEqual([
      `de (this URL)https://${HOST}/de/produkte/12`,
      `enhttps://${HOST}/products/12`,
      `x-defaulthttps://${HOST}/products/12`,
    ]);
    await shot(page, 'desktop-urls');

    // Settings: the server's validation error on the field it belongs to; a valid change saves.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Scheduled full rebuild (cron, UTC)').fill('every night');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const cron = page.getByLabel('Scheduled full rebuild (cron, UTC)');
    await expect.poll(() => cron.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await cron.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).not.toBe('');
    await shot(page, 'desktop-settings-error');
    await cron.fill('0 3 * * *');
    await page.getByLabel('robots.txt rules').fill('User-agent: *\nDisallow: /cart');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const site = (await apiClient(platform.apiUrl, tenantKey).get('/v1/sites')).body.items[0];
    expect(site.rebuildCron).toBe('0 3 * * *');
    expect(site.robotsTxt).toMatch(/^User-agent: \*\nDisallow: \/cart\n?$/);

    // Exclusions: a rule saved with what it excludes, and the launch check.
    await page.getByRole('link', { name: 'Exclusions' }).click();
    await page.getByLabel('Exclusion rules').fill('prefix:/de/');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByRole('status').filter({ hasText: 'URLs changed' }).waitFor();
    await page.getByRole('cell', { name: 'prefix:/de/', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Check the URLs' }).click();
    await page.getByRole('status').filter({ hasText: 'URLs checked' }).waitFor();
    await shot(page, 'desktop-exclusions');
    expect((await apiClient(platform.apiUrl, tenantKey).get(`/v1/sites/${site.id}/exclusions`)).body.rules).toEqual([
      { rule: { kind: 'prefix', path: '/de/' }, excludedUrls: expect.any(Number) },
    ]);

    // Webhook endpoints.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.net/sitemaps');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'signing secret' }).waitFor();
    await page.getByRole('cell', { name: 'https://hooks.example.net/sitemaps', exact: true }).waitFor();
    await shot(page, 'desktop-webhooks');

    expect(await unlabelled(page)).toEqual([]);
    await context.close();
  });

  it('works at phone width, keyboard first', async () => {
    const { context, page } = await open(PHONE);
    await shot(page, 'phone-sign-in');
    // Keyboard only: the switch to a key, the key field, then Enter submits.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('password');
    await page.keyboard.type(tenantKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
    await shot(page, 'phone-sites');
    await page.getByRole('link', { name: HOST }).click();
    await page.getByRole('heading', { level: 1, name: HOST }).waitFor();
    await page.locator('.stats').waitFor();
    await shot(page, 'phone-overview');
    await page.getByRole('link', { name: 'URLs' }).click();
    await page.getByRole('button', { name: `https://${HOST}/de/produkte/1`, exact: true }).click();
    await page.getByRole('table', { name: /Hreflang cluster/ }).waitFor();
    await shot(page, 'phone-urls');
    await page.getByRole('link', { name: 'Builds' }).click();
    await page.getByRole('img', { name: /Durations/ }).waitFor();
    await shot(page, 'phone-builds');
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await unlabelled(page)).toEqual([]);
    await context.close();
  });

  it('logged no error in the browser console, and met no refusal but those provoked', () => {
    expect(problems).toEqual([]);
    expect(refusals.map((refusal) => refusal.replace(/[0-9a-f-]{36}/, ':id'))).toEqual([
      '401 GET /v1/sites',
      '400 POST /v1/sites',
      '400 PATCH /v1/sites/:id',
    ]);
  });
});
