// A real headless Chromium for browser tests, with nothing but Node: the binary ships inside the
// @sparticuz/chromium npm package (unpacked into the OS temp folder on first use) and
// playwright-core drives it. No system Chromium, no `playwright install`. Screenshots go to
// test-artifacts/ (git-ignored), where CI keeps them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';

export const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Chromium with `hosts` resolved to local servers (`shop.example.com` → `127.0.0.1:8080`), so a
 * page asks for a site by its own name, as a browser on the open web would.
 */
export async function launchBrowser(hosts: Record<string, string> = {}): Promise<Browser> {
  // An ES module only: imported, not required.
  const { default: chromium } = await import('@sparticuz/chromium');
  // No WebGL: nothing tested draws with it, and it saves unpacking SwiftShader's GPU emulation.
  chromium.setGraphicsMode = false;
  // Its arguments are for AWS Lambda; one process for everything ends the browser with its first page.
  const args = chromium.args.filter((arg) => arg !== '--single-process');
  const rules = Object.entries(hosts).map(([host, target]) => `MAP ${host} ${target}`);
  return playwright.launch({
    executablePath: await chromium.executablePath(),
    args: [...args, ...(rules.length > 0 ? [`--host-resolver-rules=${rules.join(',')}`] : [])],
    headless: true,
  });
}

/** A full-page screenshot saved as test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
