// The console as people use it, in a real headless Chromium against the real API and a local SMTP
// server: invited, they accept and land signed in; they sign in with an email and a password,
// create sites, keys for their programs; a viewer is offered no writes and the API refuses them;
// a page of another origin cannot write with their cookie; a forgotten password is reset by
// email; axe finds no serious accessibility violation on the pages a person sees first.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { apiClient } from './support/api-client';
import { launchBrowser, screenshot } from './support/browser';
import { linkToken, startMailServer, type MailServer } from './support/mail.server';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const ROOT = path.resolve(__dirname, '..');
const PASSWORD = 'a long console password';

describe('the console, for people', () => {
  let platform: Platform;
  let mail: MailServer;
  let buildDir: string;
  let browser: Browser;
  let tenantId: string;
  let tenantKey: string;
  let admin: ReturnType<typeof apiClient>;
  const problems: string[] = [];

  const consoleUrl = (hash = '') => `${platform.apiUrl}/console/${hash}`;

  async function newPage(options: { bypassCSP?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    return page;
  }

  /** The operator invites; the link in the mail, opened in the browser, is accepted with a password. */
  async function acceptInvitation(page: Page, email: string, role: string): Promise<void> {
    const since = mail.received.length;
    expect((await admin.post(`/v1/tenants/${tenantId}/invitations`, { email, role })).status).toBe(201);
    const token = linkToken(await mail.mailTo(email, since), 'accept-invitation');
    await page.goto(consoleUrl(`#/accept-invitation/${token}`));
    await page.getByLabel('Your name').fill(email.split('@')[0] ?? email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
  }

  async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
    await page.goto(consoleUrl());
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
  }

  /** axe-core's serious and critical violations on the page as it is. */
  async function axeViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
    const results = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
      return (await axe.run()).violations.map((v) => ({
        id: v.id as string,
        impact: v.impact as string,
        n: v.nodes.length,
      }));
    });
    return results
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.n} nodes)`);
  }

  beforeAll(async () => {
    buildDir = mkdtempSync(path.join(tmpdir(), 'sitemaps-console-'));
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build-console.js'), '--out-dir', buildDir], {
      env: childProcessEnv({ NODE_ENV: 'production' }),
    });
    mail = await startMailServer();
    // The worker serves the mail queue only: it sends the invitations and resets.
    platform = await startPlatform({
      CONSOLE_DIR: path.join(buildDir, 'console'),
      SMTP_URL: mail.url,
      WORKER_QUEUES: 'mail',
    });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    ({ id: tenantId, apiKey: tenantKey } = await createTenant(platform.apiUrl, 'Console People'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await mail?.close();
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('serves the console with a CSP without unsafe-inline, no framing and no referrer', async () => {
    const page = await fetch(consoleUrl());
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('takes an invited owner from the emailed link to a site of their own', async () => {
    const page = await newPage();
    await acceptInvitation(page, 'owner@people.test', 'owner');
    // The session cookie is not for scripts.
    expect(await page.evaluate(() => document.cookie)).not.toContain('sitemaps_session');
    await page.getByLabel('Hostname').fill('people.example.com');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('heading', { level: 1, name: 'people.example.com' }).waitFor();
    await page.getByRole('link', { name: 'Sites', exact: true }).click();
    await page.getByRole('link', { name: 'people.example.com' }).waitFor();
    await screenshot(page, 'console/people-sites');

    // A key for a program: shown once, then only its prefix; revoked from the same page.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('deploy bot');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByLabel('New API key').textContent()) ?? '';
    expect(key).toMatch(/^smk_/);
    expect((await apiClient(platform.apiUrl, key).get('/v1/sites')).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke deploy bot' }).click();
    await page.getByRole('cell', { name: /^revoked/ }).waitFor();
    expect((await apiClient(platform.apiUrl, key).get('/v1/sites')).status).toBe(401);

    // The owner invites an editor from the People page; the invitation is mailed and pending.
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('cell', { name: 'owner@people.test', exact: true }).waitFor();
    const since = mail.received.length;
    await page.getByLabel('Email to invite').fill('editor@people.test');
    await page.getByLabel('Role').selectOption('editor');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to editor@people.test' }).waitFor();
    expect((await mail.mailTo('editor@people.test', since)).text).toContain('as editor');
    await page.getByRole('button', { name: 'Revoke the invitation of editor@people.test' }).waitFor();
    await screenshot(page, 'console/people-members');
    await page.context().close();
  });

  it('offers a viewer no writes, and the API refuses theirs', async () => {
    const invitee = await newPage();
    await acceptInvitation(invitee, 'viewer@people.test', 'viewer');
    await invitee.context().close();
    const page = await newPage();
    await signIn(page, 'viewer@people.test');
    await page.getByRole('link', { name: 'people.example.com' }).waitFor();
    expect(await page.getByLabel('Hostname').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    const refused = await page.evaluate(async (tenant) => {
      const session = (await (await fetch('/v1/auth/session')).json()) as { csrfToken: string };
      const res = await fetch('/v1/sites', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken, 'x-tenant-id': tenant },
        body: JSON.stringify({ hostname: 'viewer.example.com' }),
      });
      return { status: res.status, body: (await res.json()) as { error: { code: string } } };
    }, tenantId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    await page.context().close();
  });

  it('lets no page of another origin write with a signed-in person’s cookie', async () => {
    const page = await newPage();
    await signIn(page, 'owner@people.test');
    const apiPort = new URL(platform.apiUrl).port;
    // The attacker's page posts to the API with the browser's cookies, as a CSRF would.
    const attacker: Server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><title>evil</title><script>
        fetch('http://127.0.0.1:${apiPort}/v1/sites', { method: 'POST', mode: 'no-cors', credentials: 'include',
          headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ hostname: 'evil.example.com' }) })
          .finally(() => { document.title = 'done'; });
      </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const port = (attacker.address() as AddressInfo).port;
    try {
      const statuses: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/v1/sites') && response.request().method() === 'POST')
          statuses.push(response.status());
      });
      // Same site (another port of 127.0.0.1: SameSite lets the cookie go), then another site.
      for (const host of ['127.0.0.1', 'localhost']) {
        await page.goto(`http://${host}:${port}/`);
        await expect.poll(() => page.title()).toBe('done');
      }
      expect(statuses).toHaveLength(2);
      // With the cookie and no CSRF token: 403; from another site, no cookie at all: 401.
      expect(statuses).toEqual([403, 401]);
    } finally {
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
    }
    const sites = (await apiClient(platform.apiUrl, tenantKey).get('/v1/sites')).body.items as { hostname: string }[];
    expect(sites.map((site) => site.hostname)).toEqual(['people.example.com']);
    await page.context().close();
  });

  it('resets a forgotten password through the emailed link', async () => {
    const page = await newPage();
    await page.goto(consoleUrl());
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an Email field too: fill the reset page's, once it is there.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const since = mail.received.length;
    await page.getByLabel('Email').fill('viewer@people.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'reset link is on its way' }).waitFor();
    const token = linkToken(await mail.mailTo('viewer@people.test', since), 'reset-password');
    await page.goto(consoleUrl(`#/reset-password/${token}`));
    await page.getByLabel('New password').fill('the new viewer password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await signIn(page, 'viewer@people.test', 'the new viewer password');
    await page.context().close();
  });

  it('queues an import of existing sitemaps, deletes a URL, and a site once its hostname is typed', async () => {
    const doomed = 'doomed.example.com';
    const program = apiClient(platform.apiUrl, tenantKey);
    const siteId = (await program.post('/v1/sites', { hostname: doomed })).body.id as string;
    expect((await program.put(`/v1/sites/${siteId}/urls`, [{ loc: `https://${doomed}/gone` }])).status).toBe(200);
    const page = await newPage();
    await signIn(page, 'owner@people.test');
    await page.getByRole('link', { name: doomed }).click();
    await page.getByRole('link', { name: 'Import' }).click();
    expect(await page.getByLabel('Sitemap or robots.txt URL').inputValue()).toBe(`https://${doomed}/robots.txt`);
    await page.getByRole('button', { name: 'Import from URL' }).click();
    // This platform runs no worker: the import stays queued, as the page says.
    await page.getByRole('status').filter({ hasText: 'Sitemaps import queued' }).waitFor();
    await page.getByRole('link', { name: 'URLs' }).click();
    await page.getByRole('button', { name: `https://${doomed}/gone`, exact: true }).click();
    await page.getByRole('button', { name: 'Delete this URL' }).click();
    await page.getByText(`No URL starts with https://${doomed}/`).waitFor();
    expect((await program.get(`/v1/sites/${siteId}/urls`)).body.items).toEqual([]);
    await page.getByRole('link', { name: 'Settings' }).click();
    const remove = page.getByRole('button', { name: 'Delete site' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel(`Type ${doomed} to confirm`).fill(doomed);
    await remove.click();
    await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
    await page.getByRole('link', { name: 'people.example.com' }).waitFor();
    expect(await page.getByRole('link', { name: doomed }).count()).toBe(0);
    await page.context().close();
  });

  it('finds a URL by its start and edits it, keeping what the form does not show', async () => {
    const host = 'edited.example.com';
    const program = apiClient(platform.apiUrl, tenantKey);
    const siteId = (await program.post('/v1/sites', { hostname: host })).body.id as string;
    const loc = `https://${host}/blog/post`;
    await program.put(`/v1/sites/${siteId}/urls`, [
      { loc, priority: 0.3, images: [{ loc: `https://cdn.example.net/post.png` }] },
      { loc: `https://${host}/about` },
    ]);
    const page = await newPage();
    await signIn(page, 'owner@people.test');
    await page.getByRole('link', { name: host }).click();
    await page.getByRole('link', { name: 'URLs' }).click();
    await page.getByLabel('URLs starting with').fill(`https://${host}/blog`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The searched list has come when the URL outside the prefix is gone (the post is in both lists).
    await page.getByRole('button', { name: `https://${host}/about` }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: loc, exact: true }).click();
    await page.getByRole('button', { name: 'Edit this URL' }).click();
    await page.getByLabel('Last modified').fill('last tuesday');
    await page.getByLabel('Priority').fill('0.8');
    await page.getByLabel('Change frequency').selectOption('weekly');
    await page.getByRole('button', { name: 'Save the URL' }).click();
    // The API's refusal shows on its field, and nothing is stored.
    await page
      .getByText(/LASTMOD/)
      .first()
      .waitFor();
    expect(
      (await program.get(`/v1/sites/${siteId}/urls?prefix=${encodeURIComponent(loc)}`)).body.items[0].priority,
    ).toBe(0.3);
    await page.getByLabel('Last modified').fill('2026-01-02');
    await page.getByRole('button', { name: 'Save the URL' }).click();
    await page.getByRole('button', { name: 'Edit this URL' }).waitFor();
    const stored = (await program.get(`/v1/sites/${siteId}/urls?prefix=${encodeURIComponent(loc)}`)).body.items[0];
    expect(stored).toMatchObject({
      loc,
      priority: 0.8,
      changefreq: 'weekly',
      images: [{ loc: 'https://cdn.example.net/post.png' }],
    });
    expect(stored.lastmod).toMatch(/^2026-01-02/);
    await page.getByRole('definition').filter({ hasText: '0.8' }).first().waitFor();
    await page.context().close();
  });

  it('changes a password after the current one, signing the other sessions out', async () => {
    const invitee = await newPage();
    await acceptInvitation(invitee, 'changer@people.test', 'editor');
    const page = await newPage();
    await signIn(page, 'changer@people.test');
    await page.getByRole('link', { name: 'People', exact: true }).click();
    const form = page.getByRole('form', { name: 'Change your password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill('an even longer password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('not your current password').waitFor();
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('status').filter({ hasText: 'Password changed; 1 other session signed out.' }).waitFor();
    // The invitee's tab was the other session: it is asked to sign in again.
    await invitee.reload();
    await invitee.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await invitee.context().close();
    await page.context().close();
    const fresh = await newPage();
    await signIn(fresh, 'changer@people.test', 'an even longer password');
    await fresh.context().close();
  });

  it('has no serious accessibility violation (axe) on sign-in, sites, keys and people', async () => {
    // Axe is injected as an inline script: only this context lets the page's CSP pass it.
    const page = await newPage({ bypassCSP: true });
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const found: Record<string, string[]> = { signIn: await axeViolations(page) };
    await signIn(page, 'owner@people.test');
    found.sites = await axeViolations(page);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    found.keys = await axeViolations(page);
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await page.getByRole('cell', { name: 'owner@people.test', exact: true }).waitFor();
    found.people = await axeViolations(page);
    expect(found).toEqual({ signIn: [], sites: [], keys: [], people: [] });
    await page.context().close();
  });

  it('shows the operator view to a person with the platform role only, and acts from it', async () => {
    // A tenant's owner: no link, and the page, opened by hand, gets the API's refusal.
    const ownerPage = await newPage();
    await signIn(ownerPage, 'owner@people.test');
    expect(await ownerPage.getByRole('link', { name: 'Operator' }).count()).toBe(0);
    await ownerPage.goto(consoleUrl('#/operator'));
    await ownerPage.getByRole('alert').filter({ hasText: 'FORBIDDEN' }).first().waitFor();
    expect(await ownerPage.getByRole('cell', { name: 'Console People' }).count()).toBe(0);
    await ownerPage.context().close();

    const invitee = await newPage();
    await acceptInvitation(invitee, 'ops@people.test', 'viewer');
    await invitee.context().close();
    const granted = await admin.call('PUT', '/v1/admin/operators', {
      email: 'ops@people.test',
      platformRole: 'operator',
    });
    expect(granted.status).toBe(200);
    const troubled = await createTenant(platform.apiUrl, 'Troubled');

    const page = await newPage({ bypassCSP: true });
    await signIn(page, 'ops@people.test');
    await page.getByRole('link', { name: 'Operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operator' }).waitFor();
    await page.getByRole('cell', { name: 'Console People', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Troubled', exact: true }) });
    await row.getByText('unlimited sites, unlimited URLs').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    page.once('dialog', (dialog) => void dialog.accept('unpaid invoices'));
    await page.getByRole('button', { name: 'Suspend Troubled' }).click();
    await row.getByText(/Suspended .*: unpaid invoices/).waitFor();
    expect((await admin.get(`/v1/tenants/${troubled.id}`)).body.suspendedReason).toBe('unpaid invoices');
    const opsId = (await admin.get('/v1/admin/operators')).body.items[0].id as string;
    await page
      .getByRole('row')
      .filter({ hasText: 'tenant.suspend' })
      .filter({ hasText: `person:${opsId}` })
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Change the quotas of Troubled' }).click();
    await page.getByLabel('Most sites (empty: unlimited)').fill('3');
    await page.getByRole('button', { name: 'Save quotas' }).click();
    await row.getByText('3 sites, unlimited URLs').waitFor();
    expect((await admin.get(`/v1/tenants/${troubled.id}`)).body.maxSites).toBe(3);
    await page.getByRole('button', { name: 'Resume Troubled' }).click();
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();

    // Queue health: the board answers the operator's session as it does the admin key.
    const href = await page.getByRole('link', { name: /Queue health/ }).getAttribute('href');
    expect(href).toBe('/admin/queues');
    const board = await page.goto(`${platform.apiUrl}${href}`);
    expect(board?.status()).toBe(200);
    await page.context().close();
  });

  it('met no script error', () => {
    expect(problems).toEqual([]);
  });
});
