// The public server on the s3 storage driver: files read from an S3-compatible store (s3rver on
// 127.0.0.1, started here) and, with STORAGE_PUBLIC_BASE_URL, shards redirected to a CDN in front
// of the bucket — here the store's own path-style URL stands in for the CDN.
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type AppConfig } from '@sitemaps/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@sitemaps/data';
import type { Pool } from 'pg';
import { validateSitemapFile } from '@sitemaps/sitemap-xml';
import { createBlobStore } from '@sitemaps/storage';
import {
  createTestDatabase,
  rawRequest,
  startS3Server,
  testRedisUrl,
  type S3TestServer,
  type TestDatabase,
} from '@sitemaps/testing';
import { createPublicApp } from './public.app';
import { publishSite } from './testing/public.factory';

const PREFIX = 'files/';

describe('public server on the s3 storage driver', () => {
  let db: TestDatabase;
  let s3: S3TestServer;
  let prisma: PrismaClient;
  let pool: Pool;
  let direct: NestFastifyApplication;
  let redirecting: NestFastifyApplication;
  let site: Awaited<ReturnType<typeof publishSite>>;
  let cdn: string;
  const host = 'objects.example.com';

  function configFor(extra: Record<string, string> = {}): AppConfig {
    const settings = s3.config(PREFIX);
    return parseConfig({
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: settings.bucket,
      STORAGE_S3_PREFIX: PREFIX,
      STORAGE_S3_ENDPOINT: s3.endpoint,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
      STORAGE_S3_ACCESS_KEY_ID: settings.credentials?.accessKeyId ?? '',
      STORAGE_S3_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey ?? '',
      ...extra,
    });
  }

  async function listen(config: AppConfig): Promise<NestFastifyApplication> {
    const app = await createPublicApp(config);
    await app.listen(0, '127.0.0.1');
    return app;
  }

  const origin = (app: NestFastifyApplication) =>
    `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    s3 = await startS3Server();
    cdn = `${s3.endpoint}/${s3.config().bucket}/${PREFIX.slice(0, -1)}`;
    const config = configFor();
    prisma = createPrismaClient(config.databaseUrl);
    pool = createPgPool(config.databaseUrl);
    site = await publishSite(prisma, createBlobStore(config.storage, prisma, pool), host);
    direct = await listen(config);
    redirecting = await listen(configFor({ STORAGE_PUBLIC_BASE_URL: cdn }));
  });
  afterAll(async () => {
    await direct?.close();
    await redirecting?.close();
    await prisma?.$disconnect();
    await pool?.end();
    await s3?.stop();
    await db?.drop();
  });

  it('serves the index and shards with the bytes the store holds', async () => {
    const index = await rawRequest(origin(direct), '/sitemap.xml', { host });
    expect(index.status).toBe(200);
    expect(index.body.toString()).toBe(site.index.xml);
    const shard = await rawRequest(origin(direct), '/sitemap-1.xml.gz', { host });
    expect(shard.status).toBe(200);
    expect(shard.body).toEqual(site.shard.gzip);
    expect((await validateSitemapFile('sitemap-1.xml.gz', shard.body)).problems).toEqual([]);
  });

  it('redirects a stored shard to the CDN, whose URL answers the same bytes', async () => {
    const response = await rawRequest(origin(redirecting), '/sitemap-1.xml.gz', { host });
    expect(response.status).toBe(302);
    const location = response.headers.location ?? '';
    expect(location).toBe(`${cdn}/${site.site.id}/${site.shard.file.sha256.slice(0, 2)}/${site.shard.file.sha256}.gz`);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const fromCdn = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(fromCdn).toEqual(site.shard.gzip);
    expect(gunzipSync(fromCdn).toString()).toBe(site.shard.xml);
  });

  it('keeps the index, the decompressed shard, HEAD and 304s on the site host', async () => {
    const index = await rawRequest(origin(redirecting), '/sitemap.xml', { host });
    expect(index.status).toBe(200);
    expect(index.body.toString()).toBe(site.index.xml);
    const xml = await rawRequest(origin(redirecting), '/sitemap-1.xml', { host });
    expect({ status: xml.status, body: xml.body.toString() }).toEqual({ status: 200, body: site.shard.xml });
    const head = await rawRequest(origin(redirecting), '/sitemap-1.xml.gz', { host, method: 'HEAD' });
    expect({ status: head.status, length: head.headers['content-length'] }).toEqual({
      status: 200,
      length: String(site.shard.file.gzipSize),
    });
    const etag = `"${site.shard.file.sha256}"`;
    const notModified = await rawRequest(origin(redirecting), '/sitemap-1.xml.gz', {
      host,
      headers: { 'if-none-match': etag },
    });
    expect(notModified.status).toBe(304);
  });
});
