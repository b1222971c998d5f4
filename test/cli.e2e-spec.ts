// The `sitemaps` CLI as a person or a CI job runs it: its bin as a process of its own, against the
// three apps running, through the typed client. Exit codes and messages are part of its contract.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { crawl } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'apps/cli/bin/sitemaps.js');
const SITE = 'cli.example.com';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('the sitemaps CLI', () => {
  let platform: Platform;
  let dir: string;
  let tenantKey: string;
  let configFile: string;

  function sitemaps(
    args: string[],
    options: { env?: Record<string, string | undefined>; stdin?: string } = {},
  ): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: dir,
        env: childProcessEnv({
          SITEMAPS_CONFIG: configFile,
          SITEMAPS_API_URL: undefined,
          SITEMAPS_API_KEY: undefined,
          ...options.env,
        }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(options.stdin ?? '');
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  beforeAll(async () => {
    platform = await startPlatform();
    dir = mkdtempSync(path.join(tmpdir(), 'sitemaps-cli-'));
    configFile = path.join(dir, 'config', 'sitemaps.json');
    ({ apiKey: tenantKey } = await createTenant(platform.apiUrl, 'CLI'));
  });
  afterAll(async () => {
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says how to log in, and exits 4, when it has no key', async () => {
    const run = await sitemaps(['sites', 'list']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('not logged in: run `sitemaps login`');
  });

  it('refuses a key the API refuses (4), keeps one it accepts in a file only its owner reads', async () => {
    const bad = await sitemaps(['login', '--api-url', platform.apiUrl], { stdin: 'not-a-key-0123456789\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/HTTP 401/);
    const good = await sitemaps(['login', '--api-url', platform.apiUrl], { stdin: `${tenantKey}\n` });
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(`logged in to ${platform.apiUrl}`);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({ apiUrl: platform.apiUrl, apiKey: tenantKey });
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
  });

  it('creates and lists sites, with --json for scripts', async () => {
    const created = await sitemaps(['--json', 'sites', 'create', SITE]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ hostname: SITE, scheme: 'https', id: expect.any(String) });
    const again = await sitemaps(['sites', 'create', SITE]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/HOSTNAME_TAKEN.*HTTP 409/);
    const list = await sitemaps(['sites', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^${SITE.replace(/\./g, '\\.')}\\s+https\\s+verified\\s+[0-9a-f-]{36}$`, 'm'),
    );
    // Tests run with SITE_VERIFICATION=off: a site is verified on creation, and stays so.
    const verify = await sitemaps(['sites', 'verify', SITE]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toBe(`${SITE}: verified\n`);
    const unknown = await sitemaps(['sites', 'verify', 'nowhere.example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no site "nowhere.example.com"');
  });

  it('takes SITEMAPS_API_KEY over the stored key', async () => {
    const run = await sitemaps(['sites', 'list'], { env: { SITEMAPS_API_KEY: 'revoked-or-never-issued-key' } });
    expect(run.code).toBe(4);
  });

  it('imports a gzipped NDJSON file, summarising its rejected lines (exit 3), and a CSV', async () => {
    const lines = [
      {
        loc: `https://${SITE}/en/p1`,
        hreflang: 'en',
        alternates: [{ hreflang: 'de', href: `https://${SITE}/de/p1` }],
        images: [{ loc: `https://cdn.example.com/p1.jpg` }],
      },
      { loc: `https://${SITE}/de/p1`, hreflang: 'de', alternates: [{ hreflang: 'en', href: `https://${SITE}/en/p1` }] },
      { loc: 'https://elsewhere.example.org/p2' },
      { loc: `https://${SITE}/p3`, priority: 7 },
    ];
    const ndjson = path.join(dir, 'urls.ndjson.gz');
    writeFileSync(ndjson, gzipSync(lines.map((line) => JSON.stringify(line)).join('\n')));
    const run = await sitemaps(['urls', 'import', SITE, ndjson]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('completed: 4 lines read, 2 stored (2 changed), 2 rejected');
    expect(run.stdout).toMatch(/line 3: loc: .*\(URL_HOST_MISMATCH\)/);
    expect(run.stdout).toMatch(/line 4: priority: .*\(INVALID_PRIORITY\)/);

    const csv = path.join(dir, 'more.csv');
    writeFileSync(csv, `loc,lastmod\nhttps://${SITE}/p4,2024-05-01\n`);
    const json = await sitemaps(['--json', 'urls', 'import', SITE, csv]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'completed',
      linesRead: 2,
      stored: 1,
      rejected: 0,
      rejections: [],
    });

    const wrong = await sitemaps(['urls', 'import', SITE, path.join(dir, 'urls.txt')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('name it .ndjson or .csv');
  });

  it('builds with --wait, streaming progress to stderr, and the published sitemaps validate', async () => {
    const run = await sitemaps(['build', SITE, '--wait']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^build [0-9a-f-]{36} for cli\.example\.com$/m);
    expect(run.stderr).toMatch(/published: \d+ shards rendered, \d+ unchanged: 3 URLs/);
    expect(run.stdout).toContain(`published https://${SITE}/sitemap.xml`);

    const { index, shards } = await crawl(platform.publicUrl, SITE);
    const indexFile = path.join(dir, 'sitemap.xml');
    writeFileSync(indexFile, index.body);
    const shardFile = path.join(dir, 'shard.xml.gz');
    writeFileSync(shardFile, shards[0]!.body);
    for (const file of [indexFile, shardFile]) {
      const check = await sitemaps(['validate', file]);
      expect(check.code, check.stdout).toBe(0);
      expect(check.stdout).toMatch(/: valid (sitemapindex|urlset)/);
    }
  });

  it('shows one URL with its hreflang cluster and images', async () => {
    const run = await sitemaps(['urls', 'get', SITE, `https://${SITE}/en/p1`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /alternates\n\s+de\s+https:\/\/cli\.example\.com\/de\/p1\n\s+en\s+https:\/\/cli\.example\.com\/en\/p1/,
    );
    expect(run.stdout).toContain('https://cdn.example.com/p1.jpg');
    const missing = await sitemaps(['--json', 'urls', 'get', SITE, `https://${SITE}/en`]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'URL_NOT_FOUND' } });
  });

  it('exports the URLs as NDJSON import lines, to stdout or a gzipped file', async () => {
    const out = await sitemaps(['urls', 'export', SITE]);
    expect(out.code).toBe(0);
    const lines = out.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { loc: string });
    expect(lines.map((line) => line.loc).sort()).toEqual(
      [`https://${SITE}/de/p1`, `https://${SITE}/en/p1`, `https://${SITE}/p4`].sort(),
    );
    const file = path.join(dir, 'export.ndjson.gz');
    const toFile = await sitemaps(['--json', 'urls', 'export', SITE, file, '--changed-since', '2000-01-01T00:00:00Z']);
    expect(toFile.code).toBe(0);
    expect(JSON.parse(toFile.stdout)).toMatchObject({ file, urls: 3 });
    expect(gunzipSync(readFileSync(file)).toString()).toBe(out.stdout);
  });

  it('sets and shows exclusion rules, and reports conflicts with exit 1', async () => {
    const set = await sitemaps(['exclusions', 'set', SITE, 'prefix:/de/', 'query:sessionid']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/prefix:\/de\/\s+1 URLs excluded/);
    expect(set.stdout).toContain('1 URLs changed');
    const shown = await sitemaps(['--json', 'exclusions', 'show', SITE]);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      rules: [
        { rule: { kind: 'prefix', path: '/de/' }, excludedUrls: 1 },
        { rule: { kind: 'query', param: 'sessionid' }, excludedUrls: 0 },
      ],
    });
    const bad = await sitemaps(['exclusions', 'set', SITE, 'regex:.*']);
    expect(bad.code).toBe(2);
    const conflicts = await sitemaps(['conflicts', SITE]);
    expect(conflicts.code).toBe(1);
    expect(conflicts.stdout).toMatch(/HREFLANG_TO_EXCLUDED\s+1/);
    expect((await sitemaps(['exclusions', 'set', SITE])).code).toBe(0);
    expect((await sitemaps(['conflicts', SITE])).code).toBe(0);
  });

  it('validates a sitemap by URL, naming each problem and exiting 1', async () => {
    const server = http.createServer((_request, response) => {
      response.setHeader('content-type', 'application/xml');
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>2024-05-01</lastmod></url></urlset>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`;
      const run = await sitemaps(['validate', url]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: \\[xsd\\]`, 'm'));
    } finally {
      server.close();
    }
  });
});
