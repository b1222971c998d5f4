import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, KNOWN_QUEUES, parseConfig, SECRET_VARIABLES } from './config';

const base = { DATABASE_URL: 'postgres://localhost/db' };

describe('config', () => {
  it('points emailed links at the console, makes cookies Secure behind https, and takes smtp URLs only', () => {
    expect(parseConfig(base).accounts).toMatchObject({
      consoleUrl: 'http://localhost:3000/console',
      secureCookies: false,
      smtpUrl: undefined,
    });
    const https = parseConfig({ ...base, CONSOLE_URL: 'https://sitemaps.example.com/console/' }).accounts;
    expect(https).toMatchObject({ consoleUrl: 'https://sitemaps.example.com/console', secureCookies: true });
    expect(parseConfig({ ...base, SMTP_URL: 'smtps://u:p@mail.example.com:465' }).accounts.smtpUrl).toBe(
      'smtps://u:p@mail.example.com:465',
    );
    expect(() => parseConfig({ ...base, SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    const logged = JSON.stringify(
      describeConfig(parseConfig({ ...base, SMTP_URL: 'smtp://u:secret@mail.example.com' })),
    );
    expect(logged).not.toContain('secret');
  });

  it('runs one public server process per CPU unless PUBLIC_WORKERS says otherwise', () => {
    expect(parseConfig(base).public.workers).toBe(availableParallelism());
    expect(parseConfig({ ...base, PUBLIC_WORKERS: '3' }).public.workers).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'many', '257']) {
      expect(() => parseConfig({ ...base, PUBLIC_WORKERS: bad })).toThrow(ConfigError);
    }
    expect(() => parseConfig({ ...base, PUBLIC_WORKERS: '0' })).toThrow(/PUBLIC_WORKERS/);
  });

  it('reads the settings of the s3 driver, and refuses it without a bucket or with half a key pair', () => {
    const s3 = {
      ...base,
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: 'sitemaps',
      STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
    };
    expect(
      parseConfig({ ...s3, STORAGE_S3_FORCE_PATH_STYLE: 'true', STORAGE_S3_PREFIX: 'prod/blobs/' }).storage.s3,
    ).toEqual({
      bucket: 'sitemaps',
      prefix: 'prod/blobs/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: undefined,
    });
    expect(
      parseConfig({ ...s3, STORAGE_S3_ACCESS_KEY_ID: 'id', STORAGE_S3_SECRET_ACCESS_KEY: 'secret' }).storage.s3
        ?.credentials,
    ).toEqual({
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(() => parseConfig({ ...base, STORAGE_DRIVER: 's3' })).toThrow(/STORAGE_S3_BUCKET/);
    expect(() => parseConfig({ ...s3, STORAGE_S3_ACCESS_KEY_ID: 'id' })).toThrow(/STORAGE_S3_SECRET_ACCESS_KEY/);
    expect(() => parseConfig({ ...s3, STORAGE_S3_PREFIX: 'no-slash' })).toThrow(/STORAGE_S3_PREFIX/);
    expect(() => parseConfig({ ...s3, STORAGE_S3_BUCKET: 'Bad_Bucket' })).toThrow(/STORAGE_S3_BUCKET/);
    expect(parseConfig(base).storage.s3).toBeUndefined();
  });

  it('trusts no proxy unless TRUSTED_PROXIES lists addresses, CIDRs or proxy-addr names, and refuses anything else', () => {
    expect(parseConfig(base).trustedProxies).toEqual([]);
    expect(
      parseConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7, fd00::/8, ::1, loopback' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', 'loopback']);
    for (const bad of ['10.0.0.0/33', 'lb.internal', '10.0.0', '*', '10.0.0.1:8080'])
      expect(() => parseConfig({ ...base, TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
  });

  it('traces only with an OTLP endpoint and unless OTEL_SDK_DISABLED says not to', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(parseConfig(base).tracing.enabled).toBe(false);
    expect(parseConfig({ ...base, ...endpoint }).tracing.enabled).toBe(true);
    expect(
      parseConfig({ ...base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).tracing.enabled,
    ).toBe(true);
    expect(parseConfig({ ...base, ...endpoint, OTEL_SDK_DISABLED: 'true' }).tracing.enabled).toBe(false);
    expect(() => parseConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });

  it('takes a CDN base URL for stored files only where files live outside Postgres', () => {
    const cdn = { STORAGE_PUBLIC_BASE_URL: 'https://cdn.example.com/blobs/' };
    expect(parseConfig({ ...base, ...cdn, STORAGE_DRIVER: 'fs' }).storage.publicBaseUrl).toBe(
      'https://cdn.example.com/blobs',
    );
    expect(() => parseConfig({ ...base, ...cdn })).toThrow(/STORAGE_PUBLIC_BASE_URL/);
  });

  it('takes a Redis Cluster over REDIS_URL, and puts the queues in one hash tag on it', () => {
    const config = parseConfig({
      ...base,
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001',
      QUEUE_PREFIX: 'sitemaps',
    });
    expect(config.redisCluster).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
      ],
      password: undefined,
    });
    expect(config.queuePrefix).toBe('{sitemaps}');
    expect(parseConfig(base)).toMatchObject({ redisCluster: undefined, queuePrefix: 'sitemaps' });
    expect(() => parseConfig({ ...base, REDIS_CLUSTER_NODES: 'redis-a' })).toThrow(/REDIS_CLUSTER_NODES/);
  });

  it('verifies sites by default; SITE_VERIFICATION=off is development mode', () => {
    expect(parseConfig(base).verification).toMatchObject({
      enabled: true,
      dnsServers: undefined,
      recheckMs: 86_400_000,
      graceMs: 259_200_000,
    });
    expect(parseConfig({ ...base, SITE_VERIFICATION: 'off' }).verification.enabled).toBe(false);
    expect(() => parseConfig({ ...base, SITE_VERIFICATION: 'maybe' })).toThrow(/SITE_VERIFICATION/);
  });

  it('caches crawler verdicts for CRAWL_VERDICT_TTL_MS, a failed one no longer, and refuses values out of range', () => {
    expect(parseConfig(base).crawls).toMatchObject({ verdictTtlMs: 86_400_000, failedVerdictTtlMs: 3_600_000 });
    expect(parseConfig({ ...base, CRAWL_VERDICT_TTL_MS: '600000' }).crawls).toMatchObject({
      verdictTtlMs: 600_000,
      failedVerdictTtlMs: 600_000,
    });
    for (const bad of ['0', '999', '604800001', 'a day', '1.5'])
      expect(() => parseConfig({ ...base, CRAWL_VERDICT_TTL_MS: bad })).toThrow(/CRAWL_VERDICT_TTL_MS/);
    expect(() => parseConfig({ ...base, CRAWL_FAILED_VERDICT_TTL_MS: '10' })).toThrow(/CRAWL_FAILED_VERDICT_TTL_MS/);
    expect(() => parseConfig({ ...base, CRAWL_STALE_EVERY_MS: '10' })).toThrow(/CRAWL_STALE_EVERY_MS/);
  });

  it('takes DNS resolvers as addresses with optional ports', () => {
    expect(
      parseConfig({ ...base, VERIFICATION_DNS_SERVERS: '127.0.0.1:5353, 8.8.8.8, ::1, [::1]:53' }).verification
        .dnsServers,
    ).toEqual(['127.0.0.1:5353', '8.8.8.8', '::1', '[::1]:53']);
    for (const bad of ['dns.google', '127.0.0.1:99999', 'http://1.1.1.1', ' , ']) {
      expect(() => parseConfig({ ...base, VERIFICATION_DNS_SERVERS: bad }), bad).toThrow(/VERIFICATION_DNS_SERVERS/);
    }
  });
});

describe('WORKER_QUEUES', () => {
  it('defaults to every known queue and takes a subset', () => {
    expect(parseConfig(base).worker.queues).toEqual([...KNOWN_QUEUES]);
    expect(parseConfig({ ...base, WORKER_QUEUES: 'shard, publish' }).worker.queues).toEqual(['shard', 'publish']);
  });

  it('refuses an unknown queue name, naming it, and an empty list', () => {
    expect(() => parseConfig({ ...base, WORKER_QUEUES: 'build,shards' })).toThrow(
      /WORKER_QUEUES\.1: unknown queue "shards"/,
    );
    expect(() => parseConfig({ ...base, WORKER_QUEUES: ',' })).toThrow(/WORKER_QUEUES: name at least one queue/);
  });
});

describe('secrets from files (<NAME>_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'config-secrets-'));
  const file = (name: string, content: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, content);
    return full;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('marks in the schema which variables are secrets', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      [
        'ADMIN_API_KEY',
        'DATABASE_READ_URL',
        'DATABASE_URL',
        'REDIS_CLUSTER_PASSWORD',
        'REDIS_URL',
        'SMTP_URL',
        'STORAGE_S3_ACCESS_KEY_ID',
        'STORAGE_S3_SECRET_ACCESS_KEY',
      ].sort(),
    );
  });

  it('reads every secret from the file its _FILE names, without the trailing newline', () => {
    const env = {
      DATABASE_URL_FILE: file('db', 'postgres://app:s3cret@db/sitemaps\n'),
      DATABASE_READ_URL_FILE: file('db-read', 'postgres://app:s3cret@replica/sitemaps'),
      REDIS_URL_FILE: file('redis', 'redis://:pw@redis:6379\r\n'),
      REDIS_CLUSTER_NODES: 'a:7000',
      REDIS_CLUSTER_PASSWORD_FILE: file('cluster', 'cluster-pw\n'),
      ADMIN_API_KEY_FILE: file('admin', 'an-admin-key-of-32-characters-xx\n'),
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: 'sitemaps',
      STORAGE_S3_ACCESS_KEY_ID_FILE: file('key-id', 'AKIA0000\n'),
      STORAGE_S3_SECRET_ACCESS_KEY_FILE: file('secret', 'wJalr/secret\n'),
    };
    const config = parseConfig(env);
    expect(config.databaseUrl).toBe('postgres://app:s3cret@db/sitemaps');
    expect(config.databaseReadUrl).toBe('postgres://app:s3cret@replica/sitemaps');
    expect(config.redisUrl).toBe('redis://:pw@redis:6379');
    expect(config.redisCluster?.password).toBe('cluster-pw');
    expect(config.api.adminApiKey).toBe('an-admin-key-of-32-characters-xx');
    expect(config.storage.s3?.credentials).toEqual({ accessKeyId: 'AKIA0000', secretAccessKey: 'wJalr/secret' });
    // Validated like the variable itself.
    expect(() => parseConfig({ ...base, ADMIN_API_KEY_FILE: file('short', 'short\n') })).toThrow(
      /ADMIN_API_KEY: must be at least 16 characters/,
    );
  });

  it('refuses a missing or empty file, and two different values, naming the variable', () => {
    expect(() => parseConfig({ ...base, ADMIN_API_KEY_FILE: path.join(dir, 'absent') })).toThrow(
      /invalid configuration: ADMIN_API_KEY_FILE: cannot read .*absent/,
    );
    expect(() => parseConfig({ ...base, ADMIN_API_KEY_FILE: file('empty', '\n') })).toThrow(
      /ADMIN_API_KEY_FILE: .* is empty/,
    );
    const key = file('key', 'an-admin-key-of-32-characters-xx\n');
    expect(() =>
      parseConfig({ ...base, ADMIN_API_KEY: 'another-admin-key-0123456789', ADMIN_API_KEY_FILE: key }),
    ).toThrow(/ADMIN_API_KEY and ADMIN_API_KEY_FILE are both set/);
    // The same value both ways (npm start hands its apps the key it read) is one value.
    expect(
      parseConfig({ ...base, ADMIN_API_KEY: 'an-admin-key-of-32-characters-xx', ADMIN_API_KEY_FILE: key }).api
        .adminApiKey,
    ).toBe('an-admin-key-of-32-characters-xx');
  });

  it('reads no file for a variable that is not a secret', () => {
    expect(parseConfig({ ...base, LOG_LEVEL_FILE: file('level', 'debug') }).logLevel).toBe('info');
  });
});
