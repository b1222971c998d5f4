// The console (apps/console) as a tenant uses it: built by Vite into a folder of its own, served
// by the real API under /console, driven in a real headless Chromium (playwright-core with the
// Chromium shipped in @sparticuz/chromium: nothing but Node needed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { startPlatform, type Platform } from './support/platform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildConsole } = require('../scripts/build-console') as { buildConsole(outDir: string): Promise<number> };

describe('the console', () => {
  let platform: Platform;
  let buildDir: string;
  let browser: Browser;

  beforeAll(async () => {
    buildDir = mkdtempSync(path.join(tmpdir(), 'sitemaps-console-'));
    await buildConsole(buildDir);
    platform = await startPlatform({ CONSOLE_DIR: buildDir });
    browser = await launchBrowser();
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
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${platform.apiUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('renders in Chromium', async () => {
    const page = await browser.newPage();
    await page.goto(`${platform.apiUrl}/console/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Sitemaps console');
    await page.close();
  });
});
