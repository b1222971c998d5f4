// Seeds `npm start`'s demo through the REST API, as any client would: a tenant "Demo", the site
// demo.localhost with 300 URLs in three languages, and a published build. Idempotent: a restart
// reuses the tenant key kept in the data dir and finds the existing site; the URL upsert and the
// build leave the same files.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export const DEMO_HOSTNAME = 'demo.localhost';
const DEMO_TENANT_NAME = 'Demo';
const LANGUAGES = ['en', 'de', 'fr'] as const;
const PAGES = 100;
const BUILD_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;

export interface DemoSeedOptions {
  /** e.g. http://127.0.0.1:3000 */
  apiUrl: string;
  adminApiKey: string;
  /** Where the demo tenant's key is kept between runs (it is shown only once). */
  dataDir: string;
  log?: (line: string) => void;
  /** Aborts the seed when `npm start` is stopped meanwhile. */
  signal?: AbortSignal;
  /** The apps' SITE_VERIFICATION: `on` refuses the demo's hostname, so there is no demo then. */
  siteVerification?: string;
}

export type DemoSeedResult =
  | {
      status: 'ready';
      tenantApiKey: string;
      tenantKeyFile: string;
      siteId: string;
      siteUrl: string;
      urlCount: number;
      buildId: string;
    }
  | { status: 'unavailable'; reason: string };

interface DemoUrl {
  loc: string;
  lastmod: string;
  changefreq: 'weekly';
  priority: number;
  alternates: { hreflang: string; href: string }[];
}

interface Site {
  id: string;
  hostname: string;
  scheme?: string;
}

export class DemoSeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoSeedError';
  }
}

/** The demo's URLs: `/en/products/1` with its `de` and `fr` siblings, and the language chooser `/products/1` as x-default. */
export function demoUrls(origin = `http://${DEMO_HOSTNAME}`): DemoUrl[] {
  const urls: DemoUrl[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const href = (language: string) => `${origin}/${language}/products/${page}`;
    // Fixed dates, so a re-seed changes nothing.
    const lastmod = new Date(Date.UTC(2026, 0, 1 + (page % 28))).toISOString().slice(0, 10);
    for (const language of LANGUAGES) {
      urls.push({
        loc: href(language),
        lastmod,
        changefreq: 'weekly',
        priority: page <= 10 ? 0.8 : 0.5,
        // The whole cluster, the URL itself included: that is how the URL's own language is known.
        alternates: [
          ...LANGUAGES.map((member) => ({ hreflang: member, href: href(member) })),
          { hreflang: 'x-default', href: `${origin}/products/${page}` },
        ],
      });
    }
  }
  return urls;
}

/** Why there is no demo with SITE_VERIFICATION=on, and what to do instead. */
export const VERIFICATION_ON_REASON = [
  `SITE_VERIFICATION=on serves a site only once its owner proves the hostname, and ${DEMO_HOSTNAME} cannot`,
  '  be proven (HOSTNAME_NOT_PUBLIC). To try it: create a tenant with the admin key (POST /v1/tenants), a site',
  '  for a hostname you control with its key (POST /v1/sites), publish the TXT record or the file its',
  '  `verification` names, then POST /v1/sites/<id>/verify. Unset SITE_VERIFICATION for the demo.',
].join('\n');

export async function seedDemo(opts: DemoSeedOptions): Promise<DemoSeedResult> {
  const log = opts.log ?? (() => {});
  if (opts.siteVerification === 'on') return { status: 'unavailable', reason: VERIFICATION_ON_REASON };
  const api = new ApiClient(opts.apiUrl, opts.signal);
  const tenantKeyFile = path.resolve(opts.dataDir, 'demo-tenant-key');

  let tenantApiKey = await readFile(tenantKeyFile, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  let site = tenantApiKey ? await findSite(api, tenantApiKey) : undefined;
  if (site === null) {
    // The key on disk belongs to another database (DATABASE_URL changed, or the database was reset).
    log(`the demo tenant key in ${tenantKeyFile} is not known to this database: creating a new demo tenant`);
    tenantApiKey = '';
  }
  if (!tenantApiKey) {
    const tenant = await api.request<{ id: string; apiKey: string }>({
      method: 'POST',
      route: '/v1/tenants',
      key: opts.adminApiKey,
      body: { name: DEMO_TENANT_NAME },
      expected: [201],
    });
    tenantApiKey = tenant.body.apiKey;
    await writeFile(tenantKeyFile, `${tenantApiKey}\n`, { mode: 0o600 });
    log(`created tenant "${DEMO_TENANT_NAME}" (${tenant.body.id}); its key is kept in ${tenantKeyFile}`);
    site = undefined;
  }

  site ??= await findSite(api, tenantApiKey);
  if (!site) {
    const created = await api.request<Site>({
      method: 'POST',
      route: '/v1/sites',
      key: tenantApiKey,
      body: { hostname: DEMO_HOSTNAME, scheme: 'http' },
      expected: [201, 409],
    });
    if (created.status === 409) {
      return {
        status: 'unavailable',
        reason: `${DEMO_HOSTNAME} belongs to a tenant whose key is no longer in ${tenantKeyFile}; the demo is left as it is`,
      };
    }
    site = created.body;
    log(`created site ${DEMO_HOSTNAME} (${site.id})`);
  } else {
    log(`found site ${DEMO_HOSTNAME} (${site.id})`);
  }

  const urls = demoUrls();
  const upsert = await api.request<{ upserted: number; errors: unknown[] }>({
    method: 'PUT',
    route: `/v1/sites/${site.id}/urls`,
    key: tenantApiKey,
    body: urls,
    expected: [200],
  });
  if (upsert.body.errors?.length) {
    throw new DemoSeedError(`the API rejected demo URLs: ${JSON.stringify(upsert.body.errors.slice(0, 3))}`);
  }
  log(`upserted ${urls.length} URLs`);

  const build = await api.request<{ buildId: string }>({
    method: 'POST',
    route: `/v1/sites/${site.id}/builds`,
    key: tenantApiKey,
    expected: [202],
  });
  const buildId = build.body.buildId;
  log(`build ${buildId} queued; waiting until it is published`);
  await waitForPublished(api, tenantApiKey, { siteId: site.id, buildId }, opts.signal);

  return {
    status: 'ready',
    tenantApiKey,
    tenantKeyFile,
    siteId: site.id,
    siteUrl: `http://${DEMO_HOSTNAME}`,
    urlCount: urls.length,
    buildId,
  };
}

/** The tenant's demo site; undefined when it has none yet; null when the key is not accepted. */
async function findSite(api: ApiClient, tenantApiKey: string): Promise<Site | undefined | null> {
  let cursor: string | null | undefined;
  do {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const page = await api.request<{ items: Site[]; nextCursor: string | null }>({
      method: 'GET',
      route: `/v1/sites${query}`,
      key: tenantApiKey,
      expected: [200, 401],
    });
    if (page.status === 401) return null;
    const found = page.body.items.find((item) => item.hostname === DEMO_HOSTNAME);
    if (found) return found;
    cursor = page.body.nextCursor;
  } while (cursor);
  return undefined;
}

async function waitForPublished(
  api: ApiClient,
  key: string,
  { siteId, buildId }: { siteId: string; buildId: string },
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  let delayMs = 100;
  for (;;) {
    const build = await api.request<{ status: string; error?: unknown }>({
      method: 'GET',
      route: `/v1/sites/${siteId}/builds/${buildId}`,
      key,
      expected: [200],
    });
    if (build.body.status === 'published') return;
    if (build.body.status === 'failed')
      throw new DemoSeedError(`demo build ${buildId} failed: ${JSON.stringify(build.body)}`);
    if (Date.now() > deadline) {
      throw new DemoSeedError(
        `demo build ${buildId} was not published within ${BUILD_TIMEOUT_MS / 1000}s (status: ${build.body.status}); is the worker running?`,
      );
    }
    await delay(delayMs, undefined, { signal });
    delayMs = Math.min(delayMs * 2, 1_000);
  }
}

/** One request to the API: with whose key, and which statuses are answers (the rest throw). */
interface ApiCall {
  method: string;
  route: string;
  key: string;
  body?: unknown;
  expected: number[];
}

class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async request<T>({ method, route, key, body, expected }: ApiCall): Promise<{ status: number; body: T }> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetch(`${this.baseUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
    });
    const text = await response.text();
    if (!expected.includes(response.status)) {
      throw new DemoSeedError(`${method} ${route} answered ${response.status}: ${text.slice(0, 500)}`);
    }
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
}
