// GET …/urls/export through the real API and workers: NDJSON in the import's shape, so that an
// export imported into a new site of the same hostname publishes the very same files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { crawl } from './support/crawler';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const HOST = 'export.example.org';
const url = (path: string) => `https://${HOST}${path}`;

/** A site's worth of every kind of entry: sections, clusters, images, videos, fresh news, defaults. */
function entries(now: Date): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (let i = 0; i < 120; i++) {
    const cluster = ['en', 'de', 'fr'].map((lang) => ({ hreflang: lang, href: url(`/${lang}/p${i}`) }));
    for (const lang of ['en', 'de', 'fr']) {
      list.push({
        loc: url(`/${lang}/p${i}`),
        hreflang: lang,
        alternates: [...cluster, { hreflang: 'x-default', href: url(`/en/p${i}`) }].filter(
          (link, index, all) => all.findIndex((other) => other.hreflang === link.hreflang) === index,
        ),
        ...(i % 3 === 0 ? { lastmod: '2026-01-0' + ((i % 9) + 1) } : {}),
        ...(i % 4 === 0 ? { images: [{ loc: url(`/img/${i}.jpg`) }] } : {}),
      });
    }
  }
  for (let i = 0; i < 40; i++)
    list.push({ loc: url(`/blog/${i}`), section: 'blog', changefreq: 'weekly', priority: 0.3 });
  list.push({
    loc: url('/video/1'),
    videos: [
      {
        thumbnailLoc: url('/t/1.jpg'),
        title: 'A video',
        description: 'What it shows',
        contentLoc: url('/v/1.mp4'),
        duration: 60,
        tags: ['a', 'b'],
      },
    ],
  });
  list.push({
    loc: url('/news/today'),
    news: {
      publicationName: 'The Paper',
      publicationLanguage: 'en',
      publicationDate: now.toISOString().slice(0, 19) + 'Z',
      title: 'Today',
    },
  });
  list.push({ loc: url('/a?x=1&y="2"') });
  list.push({ loc: url('/hidden'), lastmod: '2026-01-02', excluded: true });
  return list;
}

describe('URL export', () => {
  let platform: Platform;
  let api: ReturnType<typeof apiClient>;
  let key: string;

  beforeAll(async () => {
    platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    ({ apiKey: key, api } = await createTenant(platform.apiUrl, 'Export'));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const publish = async (siteId: string) => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  };
  const files = async () => {
    const { index, shards } = await crawl(platform.publicUrl, HOST);
    expect(shards.length).toBeGreaterThan(1);
    // The index dates each file by when its bytes were published, which differs between two sites.
    const undated = { ...index, xml: index.xml.replace(/<lastmod>[^<]*<\/lastmod>/g, '') };
    return [undated, ...shards].map((file) => ({ path: file.path, status: file.status, xml: file.xml }));
  };
  it('round trips: exported, imported into a new site of the hostname, it publishes identical files', async () => {
    const first = (await api.post('/v1/sites', { hostname: HOST, defaultChangefreq: 'daily', defaultPriority: 0.7 }))
      .body;
    const sent = entries(new Date());
    const stored = await api.put(`/v1/sites/${first.id}/urls`, sent);
    expect(stored.body.errors).toEqual([]);
    await publish(first.id);
    const before = await files();

    const exported = await fetchExport(platform.apiUrl, key, first.id);
    expect(exported.status).toBe(200);
    expect(exported.contentType).toMatch(/^application\/x-ndjson/);
    const lines = exported.text.trimEnd().split('\n');
    expect(lines).toHaveLength(sent.length);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // A lastmod the client sent comes back; one it never sent stays unknown, so the import dates nothing anew.
    expect(parsed.filter((line) => typeof line.lastmod === 'string')).toHaveLength(
      sent.filter((entry) => 'lastmod' in entry).length,
    );
    expect(parsed.find((line) => line.loc === url('/blog/3'))).toMatchObject({
      section: 'blog',
      changefreq: 'weekly',
      priority: 0.3,
    });

    expect((await api.delete(`/v1/sites/${first.id}`)).status).toBe(204);
    const second = (await api.post('/v1/sites', { hostname: HOST })).body;
    const imported = await fetch(`${platform.apiUrl}/v1/sites/${second.id}/urls/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body: exported.text,
    });
    expect(imported.status).toBe(201);
    expect(await imported.json()).toMatchObject({ status: 'completed', stored: sent.length, rejected: 0 });
    await publish(second.id);
    expect(await files()).toEqual(before);
    // The flagged URL came along, flag and all: stored, not published, on both sides.
    const hidden = await api.get(`/v1/sites/${second.id}/urls?excluded=true`);
    expect(hidden.body.items).toEqual([expect.objectContaining({ loc: url('/hidden'), excluded: true })]);
  });

  it('exports only the URLs changed since an instant, and 404s for a site of another tenant', async () => {
    const site = (await api.post('/v1/sites', { hostname: 'since.example.org' })).body;
    await api.put(`/v1/sites/${site.id}/urls`, [{ loc: 'https://since.example.org/old' }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date();
    await api.put(`/v1/sites/${site.id}/urls`, [{ loc: 'https://since.example.org/new' }]);
    const all = await fetchExport(platform.apiUrl, key, site.id);
    expect(all.text.trimEnd().split('\n')).toHaveLength(2);
    const recent = await fetchExport(platform.apiUrl, key, site.id, `?changedSince=${since.toISOString()}`);
    expect(
      recent.text
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { loc: string }).loc),
    ).toEqual(['https://since.example.org/new']);
    expect((await fetchExport(platform.apiUrl, key, site.id, '?changedSince=yesterday')).status).toBe(400);

    const admin = apiClient(platform.apiUrl, ADMIN_KEY);
    const other = (await admin.post('/v1/tenants', { name: 'Other' })).body.apiKey as string;
    expect((await fetchExport(platform.apiUrl, other, site.id)).status).toBe(404);
  });
});

async function fetchExport(apiUrl: string, key: string, siteId: string, query = '') {
  const response = await fetch(`${apiUrl}/v1/sites/${siteId}/urls/export${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}
