// A real headless Chromium for browser tests, with nothing but Node: the binary ships inside the
// @sparticuz/chromium npm package (unpacked into the OS temp folder on first use) and
// playwright-core drives it. No system Chromium, no `playwright install`.
import { chromium as playwright, type Browser } from 'playwright-core';

export async function launchBrowser(): Promise<Browser> {
  // An ES module only: imported, not required.
  const { default: chromium } = await import('@sparticuz/chromium');
  // No WebGL: nothing tested draws with it, and it saves unpacking SwiftShader's GPU emulation.
  chromium.setGraphicsMode = false;
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}
