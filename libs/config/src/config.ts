// The only place that reads process.env. Every app parses its config once at boot and stops
// with a clear message on the first invalid variable; tests build config from plain objects.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { buildsEnv } from './env/builds.env';
import { crawlsEnv } from './env/crawls.env';
import { databaseEnv } from './env/database.env';
import { httpEnv } from './env/http.env';
import { importsEnv } from './env/imports.env';
import { limitsEnv } from './env/limits.env';
import { observabilityEnv } from './env/observability.env';
import { redisEnv } from './env/redis.env';
import { securityEnv } from './env/security.env';
import { storageEnv } from './env/storage.env';
import { verificationEnv } from './env/verification.env';
import { webhooksEnv } from './env/webhooks.env';
import { SecretFileError, withSecretFiles } from './secret-files';

export { KNOWN_QUEUES, QUEUE_NAMES_ALL } from './env/env-types';

// One object per area (libs/config/src/env/<area>.env.ts); the order here is the docs' order.
const envSchema = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...httpEnv,
  ...limitsEnv,
  ...securityEnv,
  ...observabilityEnv,
  ...buildsEnv,
  ...storageEnv,
  ...importsEnv,
  ...webhooksEnv,
  ...verificationEnv,
  ...crawlsEnv,
});

/** The areas in the docs' order, each with its variables: docs/configuration.md has a table each. */
export const CONFIG_AREAS: readonly { title: string; variables: readonly (keyof Env)[] }[] = [
  { title: 'Database', variables: keysOf(databaseEnv) },
  { title: 'Redis and queues', variables: keysOf(redisEnv) },
  { title: 'HTTP listeners and proxies', variables: keysOf(httpEnv) },
  { title: 'API limits', variables: keysOf(limitsEnv) },
  { title: 'Keys, sign-in and mail', variables: keysOf(securityEnv) },
  { title: 'Logs, metrics and tracing', variables: keysOf(observabilityEnv) },
  { title: 'Worker and builds', variables: keysOf(buildsEnv) },
  { title: 'Storage', variables: keysOf(storageEnv) },
  { title: 'Importing existing sitemaps', variables: keysOf(importsEnv) },
  { title: 'Webhooks', variables: keysOf(webhooksEnv) },
  { title: 'Hostname verification', variables: keysOf(verificationEnv) },
  { title: 'Crawl insight', variables: keysOf(crawlsEnv) },
];

function keysOf(area: Record<string, unknown>): (keyof Env)[] {
  return Object.keys(area) as (keyof Env)[];
}

/** What a variable's schema says of it for the docs (`.meta()` in its area's file). */
export function variableDoc(name: keyof Env): VariableDoc {
  const meta = envSchema.shape[name].meta() ?? {};
  const text = (key: string) => (typeof meta[key] === 'string' ? meta[key] : undefined);
  return {
    description: text('description'),
    docWith: text('docWith') as keyof Env | undefined,
    docDefault: text('docDefault'),
    secret: meta.secret === true,
  };
}

export type Env = z.input<typeof envSchema>;

/** Every variable of the schema, and those it marks secret (each may be set as `<NAME>_FILE`). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];
export const SECRET_VARIABLES = CONFIG_VARIABLES.filter((name) => envSchema.shape[name].meta()?.secret === true);

export interface VariableDoc {
  description: string | undefined;
  /** Documented in the row of this variable (`A` / `B`), which holds the description. */
  docWith: keyof Env | undefined;
  /** The default in words, where the schema's value alone would not say it (computed, or unset). */
  docDefault: string | undefined;
  secret: boolean;
}

/** One variable's value as the schema reads it (its default when undefined), or an error message. */
export function parseVariable(name: keyof Env, value: string | undefined): { value: unknown } | { error: string } {
  const result = envSchema.shape[name].safeParse(value === '' ? undefined : value);
  return result.success ? { value: result.data } : { error: result.error.issues[0]?.message ?? 'invalid' };
}

/** The environment with secrets given as files read in; every loader below starts from it. */
export function resolveEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  try {
    return withSecretFiles(env, SECRET_VARIABLES, (file) => readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SecretFileError) throw new ConfigError(`invalid configuration: ${error.message}`);
    throw error;
  }
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  databaseUrl: string;
  /** A streaming replica for the public server's reads, or undefined: it reads the primary. */
  databaseReadUrl: string | undefined;
  redisUrl: string;
  /** Set when REDIS_CLUSTER_NODES is: every Redis connection is then a cluster client. */
  redisCluster: RedisClusterConfig | undefined;
  api: {
    host: string;
    port: number;
    adminApiKey: string | undefined;
    consoleDir: string | undefined;
    limits: ApiLimits;
  };
  accounts: AccountsConfig;
  public: {
    host: string;
    port: number;
    baseUrl: string | undefined;
    workers: number;
    /** PUBLIC_STALE_IF_ERROR_S in ms: how long past its read a manifest may serve through a Postgres outage. */
    staleIfErrorMs: number;
  };
  /** TRUSTED_PROXIES: the peers whose X-Forwarded-For names the client; empty: the peer is the client. */
  trustedProxies: string[];
  logLevel: string;
  /** Metrics listeners (undefined: off); the worker's /metrics is on its own HTTP listener. */
  metrics: { host: string; apiPort: number | undefined; publicPort: number | undefined };
  /** Whether the apps trace (an OTLP endpoint is set and OTEL_SDK_DISABLED is not). */
  tracing: { enabled: boolean };
  /** On a cluster `{QUEUE_PREFIX}`: a hash tag, so every key of every queue is in one slot, as
   *  BullMQ's scripts (and flows across queues) need. */
  queuePrefix: string;
  worker: {
    queues: string[];
    concurrency: number;
    shardConcurrency: number;
    lockMs: number;
    shutdownTimeoutMs: number;
    stallMs: number;
    http: { host: string; port: number };
  };
  build: { quietMs: number; maxWaitMs: number; staleMs: number };
  storage: StorageConfig;
  indexNow: { endpoints: string[] };
  import: ImportConfig;
  webhooks: WebhookConfig;
  idempotencyKeyTtlSeconds: number;
  verification: VerificationConfig;
  crawls: CrawlConfig;
}

export interface CrawlConfig {
  enabled: boolean;
  flushMs: number;
  retentionDays: number;
  eventsEveryMs: number;
  staleEveryMs: number;
  /** How long a verified (and a failed) verdict on a crawler's address is cached. */
  verdictTtlMs: number;
  failedVerdictTtlMs: number;
  /** VERIFICATION_DNS_SERVERS: crawlers' addresses are checked through the same resolvers. */
  dnsServers: string[] | undefined;
}

export interface AccountsConfig {
  /** The console's public URL, no trailing slash; links in emails point under it. */
  consoleUrl: string;
  /** Whether the session cookie is Secure (the console is served over https). */
  secureCookies: boolean;
  /** undefined: no mail can be sent. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** MAIL_ATTEMPTS / MAIL_BACKOFF_MS: how the mail queue retries a refused email. */
  mailRetry: { attempts: number; backoffMs: number };
  signInFailures: { points: number; durationSeconds: number };
}

export interface WebhookConfig {
  attempts: number;
  backoffMs: number;
  timeoutMs: number;
  disableAfterFailures: number;
  allowPrivateAddresses: boolean;
}

export interface RedisClusterConfig {
  nodes: { host: string; port: number }[];
  password: string | undefined;
}

export interface VerificationConfig {
  /** Whether new sites must prove their hostname; off also allows private names (development mode). */
  enabled: boolean;
  dnsServers: string[] | undefined;
  retryMs: number;
  recheckMs: number;
  graceMs: number;
  sweepMs: number;
  /** At most one asked-for check per site per this long. */
  requestIntervalMs: number;
  httpPort: number | undefined;
  allowPrivateAddresses: boolean;
}

export interface StorageConfig {
  driver: 'postgres' | 'fs' | 's3';
  dir: string;
  graceMs: number;
  /** Set when the driver is `s3`. */
  s3?: S3StorageConfig;
  /** A CDN's URL for the store's files (no trailing slash), or undefined: the public server sends the bytes itself. */
  publicBaseUrl?: string;
}

export interface S3StorageConfig {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: most S3-compatible stores want it. */
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export interface ImportConfig {
  allowPrivateAddresses: boolean;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
  maxCompressionRatio: number;
  dbConnections: number;
  uploadsPerTenant: number;
  maxDepth: number;
  maxRedirects: number;
  timeoutMs: number;
  requestTimeoutMs: number;
}

export interface ApiLimits {
  rateLimit: { points: number; durationSeconds: number };
  /** All keys of a tenant together, over the same window. */
  tenantRateLimit: { points: number };
  /** Failed authentications per client address and key prefix. */
  authFailures: { points: number; durationSeconds: number };
  /** POST /v1/validate: running per tenant, running or waiting in all. */
  validations: { perTenant: number; pending: number };
  /** Bulk routes; every other route; JSON values per body. */
  bulkBodyLimitBytes: number;
  bodyLimitBytes: number;
  jsonMaxValues: number;
  bodyIdleTimeoutMs: number;
  graphql: { maxDepth: number; maxComplexity: number; maxAliases: number; maxQueryLength: number };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = envSchema.safeParse(emptyToUndefined(resolveEnv(env)));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue?.path.join('.') || 'env'}: ${issue?.message ?? 'invalid'}`);
  }
  const e = result.data;
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    redisUrl: e.REDIS_URL,
    redisCluster: e.REDIS_CLUSTER_NODES && {
      nodes: e.REDIS_CLUSTER_NODES.map((node) => {
        const at = node.lastIndexOf(':');
        return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
      }),
      password: e.REDIS_CLUSTER_PASSWORD,
    },
    api: {
      host: e.API_HOST,
      port: e.API_PORT,
      adminApiKey: e.ADMIN_API_KEY,
      consoleDir: e.CONSOLE_DIR,
      limits: {
        rateLimit: { points: e.API_RATE_LIMIT_POINTS, durationSeconds: e.API_RATE_LIMIT_DURATION_S },
        tenantRateLimit: { points: e.API_TENANT_RATE_LIMIT_POINTS },
        authFailures: { points: e.API_AUTH_FAILURE_POINTS, durationSeconds: e.API_AUTH_FAILURE_DURATION_S },
        validations: { perTenant: e.API_VALIDATIONS_PER_TENANT, pending: e.API_VALIDATIONS_PENDING },
        bulkBodyLimitBytes: e.API_BULK_BODY_LIMIT_BYTES,
        bodyLimitBytes: e.API_BODY_LIMIT_BYTES,
        jsonMaxValues: e.API_JSON_MAX_VALUES,
        bodyIdleTimeoutMs: e.API_BODY_IDLE_TIMEOUT_MS,
        graphql: {
          maxDepth: e.GRAPHQL_MAX_DEPTH,
          maxComplexity: e.GRAPHQL_MAX_COST,
          maxAliases: e.GRAPHQL_MAX_ALIASES,
          maxQueryLength: e.GRAPHQL_MAX_QUERY_LENGTH,
        },
      },
    },
    accounts: {
      consoleUrl: (e.CONSOLE_URL ?? `http://localhost:${e.API_PORT}/console`).replace(/\/+$/, ''),
      secureCookies: (e.CONSOLE_URL ?? '').startsWith('https:'),
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      mailRetry: { attempts: e.MAIL_ATTEMPTS, backoffMs: e.MAIL_BACKOFF_MS },
      signInFailures: { points: e.SIGN_IN_FAILURE_POINTS, durationSeconds: e.SIGN_IN_FAILURE_DURATION_S },
    },
    public: {
      host: e.PUBLIC_HOST,
      port: e.PUBLIC_PORT,
      baseUrl: e.PUBLIC_BASE_URL,
      workers: e.PUBLIC_WORKERS,
      staleIfErrorMs: e.PUBLIC_STALE_IF_ERROR_S * 1_000,
    },
    trustedProxies: e.TRUSTED_PROXIES,
    logLevel: e.LOG_LEVEL,
    metrics: { host: e.METRICS_HOST, apiPort: e.API_METRICS_PORT, publicPort: e.PUBLIC_METRICS_PORT },
    tracing: { enabled: tracingEnabled(e) },
    queuePrefix: e.REDIS_CLUSTER_NODES ? `{${e.QUEUE_PREFIX}}` : e.QUEUE_PREFIX,
    worker: {
      queues: e.WORKER_QUEUES,
      concurrency: e.WORKER_CONCURRENCY,
      shardConcurrency: e.WORKER_SHARD_CONCURRENCY,
      lockMs: e.WORKER_LOCK_MS,
      shutdownTimeoutMs: e.WORKER_SHUTDOWN_TIMEOUT_MS,
      stallMs: e.WORKER_STALL_MS,
      http: { host: e.WORKER_HTTP_HOST, port: e.WORKER_HTTP_PORT },
    },
    build: { quietMs: e.BUILD_QUIET_MS, maxWaitMs: e.BUILD_MAX_WAIT_MS, staleMs: e.BUILD_STALE_MS },
    storage: storageConfig(e),
    indexNow: { endpoints: e.INDEXNOW_ENDPOINTS },
    import: {
      allowPrivateAddresses: e.IMPORT_ALLOW_PRIVATE_ADDRESSES,
      maxFileBytes: e.IMPORT_MAX_FILE_BYTES,
      maxTotalBytes: e.IMPORT_MAX_TOTAL_BYTES,
      maxFiles: e.IMPORT_MAX_FILES,
      maxCompressionRatio: e.IMPORT_MAX_COMPRESSION_RATIO,
      dbConnections: e.IMPORT_DB_CONNECTIONS,
      uploadsPerTenant: e.IMPORT_UPLOADS_PER_TENANT,
      maxDepth: e.IMPORT_MAX_DEPTH,
      maxRedirects: e.IMPORT_MAX_REDIRECTS,
      timeoutMs: e.IMPORT_TIMEOUT_MS,
      requestTimeoutMs: e.IMPORT_REQUEST_TIMEOUT_MS,
    },
    webhooks: {
      attempts: e.WEBHOOK_ATTEMPTS,
      backoffMs: e.WEBHOOK_BACKOFF_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      allowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
    },
    idempotencyKeyTtlSeconds: e.IDEMPOTENCY_KEY_TTL_S,
    verification: {
      enabled: e.SITE_VERIFICATION === 'on',
      dnsServers: e.VERIFICATION_DNS_SERVERS,
      retryMs: e.VERIFICATION_RETRY_MS,
      recheckMs: e.VERIFICATION_RECHECK_MS,
      graceMs: e.VERIFICATION_GRACE_MS,
      sweepMs: e.VERIFICATION_SWEEP_MS,
      requestIntervalMs: e.VERIFICATION_REQUEST_INTERVAL_MS,
      httpPort: e.VERIFICATION_HTTP_PORT,
      allowPrivateAddresses: e.VERIFICATION_ALLOW_PRIVATE_ADDRESSES,
    },
    crawls: {
      enabled: e.CRAWL_INSIGHT === 'on',
      flushMs: e.CRAWL_FLUSH_MS,
      retentionDays: e.CRAWL_RETENTION_DAYS,
      eventsEveryMs: e.CRAWL_EVENTS_EVERY_MS,
      staleEveryMs: e.CRAWL_STALE_EVERY_MS,
      verdictTtlMs: e.CRAWL_VERDICT_TTL_MS,
      failedVerdictTtlMs: Math.min(e.CRAWL_FAILED_VERDICT_TTL_MS, e.CRAWL_VERDICT_TTL_MS),
      dnsServers: e.VERIFICATION_DNS_SERVERS,
    },
  };
}

function storageConfig(e: z.output<typeof envSchema>): StorageConfig {
  const storage: StorageConfig = { driver: e.STORAGE_DRIVER, dir: e.STORAGE_DIR, graceMs: e.BLOB_GRACE_MS };
  if (e.STORAGE_PUBLIC_BASE_URL) {
    if (e.STORAGE_DRIVER === 'postgres')
      throw new ConfigError('invalid configuration: STORAGE_PUBLIC_BASE_URL: needs STORAGE_DRIVER fs or s3');
    storage.publicBaseUrl = e.STORAGE_PUBLIC_BASE_URL.replace(/\/+$/, '');
  }
  if (e.STORAGE_DRIVER !== 's3') return storage;
  if (!e.STORAGE_S3_BUCKET)
    throw new ConfigError('invalid configuration: STORAGE_S3_BUCKET: required when STORAGE_DRIVER is s3');
  const keyId = e.STORAGE_S3_ACCESS_KEY_ID;
  const secret = e.STORAGE_S3_SECRET_ACCESS_KEY;
  if (!keyId !== !secret) {
    throw new ConfigError(
      'invalid configuration: STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY: set both or neither',
    );
  }
  storage.s3 = {
    bucket: e.STORAGE_S3_BUCKET,
    prefix: e.STORAGE_S3_PREFIX,
    endpoint: e.STORAGE_S3_ENDPOINT,
    region: e.STORAGE_S3_REGION,
    forcePathStyle: e.STORAGE_S3_FORCE_PATH_STYLE,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
  };
  return storage;
}

/**
 * `npm start` and the test harness run in development mode unless told otherwise: with
 * SITE_VERIFICATION unset they pass `off`; a value that is set is honoured.
 */
export function developmentSiteVerification(): 'on' | 'off' | string {
  return process.env.SITE_VERIFICATION || 'off';
}

/** Reads process.env once; the apps call this at boot. */
export function loadConfig(): AppConfig {
  return parseConfig(process.env);
}

/** Just the database URL, for the migration CLI. */
export function loadDatabaseEnv(): { databaseUrl: string } {
  const url = resolveEnv(process.env).DATABASE_URL;
  if (!url) throw new ConfigError('DATABASE_URL is not set (npm start migrates its embedded database by itself)');
  return { databaseUrl: url };
}

/**
 * Read before anything else loads (the first line of each app's main.ts), since tracing must
 * hook modules before they are required: whether to trace.
 */
export function loadTracingEnv(): { enabled: boolean } {
  const result = envSchema
    .pick({ OTEL_EXPORTER_OTLP_ENDPOINT: true, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: true, OTEL_SDK_DISABLED: true })
    .safeParse(emptyToUndefined(process.env));
  // An invalid value is reported by loadConfig, which stops the app.
  return { enabled: result.success && tracingEnabled(result.data) };
}

function tracingEnabled(e: {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_SDK_DISABLED: boolean;
}): boolean {
  return !e.OTEL_SDK_DISABLED && !!(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** What the local-services bootstrap may find already configured. */
export function loadServiceEnv(): {
  databaseUrl?: string;
  redisUrl?: string;
  redisClusterNodes?: string;
  dataDir: string;
} {
  const env = resolveEnv(process.env);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisClusterNodes: process.env.REDIS_CLUSTER_NODES || undefined,
    dataDir: process.env.SITEMAPS_DATA_DIR || '.data',
  };
}

/** Config for logs: secrets masked. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  return {
    ...config,
    databaseUrl: maskUrl(config.databaseUrl),
    databaseReadUrl: config.databaseReadUrl && maskUrl(config.databaseReadUrl),
    redisUrl: maskUrl(config.redisUrl),
    redisCluster: config.redisCluster && {
      ...config.redisCluster,
      password: config.redisCluster.password ? '***' : undefined,
    },
    api: { ...config.api, adminApiKey: config.api.adminApiKey ? '***' : undefined },
    accounts: { ...config.accounts, smtpUrl: config.accounts.smtpUrl && maskUrl(config.accounts.smtpUrl) },
    storage: {
      ...config.storage,
      s3: config.storage.s3 && { ...config.storage.s3, credentials: config.storage.s3.credentials ? '***' : undefined },
    },
  };
}

function maskUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '***';
  return url.toString();
}

function emptyToUndefined(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === '' ? undefined : value]));
}

/**
 * What `npm start` reads before any database exists: the ports it waits on and the admin key
 * it hands the apps (it generates one when unset). DATABASE_URL is not needed here.
 */
export function loadStartEnv(): {
  apiPort: number;
  publicPort: number;
  workerHttpPort: number;
  adminApiKey: string | undefined;
  logFormat: 'json' | 'pretty';
} {
  const result = envSchema
    .pick({ API_PORT: true, PUBLIC_PORT: true, WORKER_HTTP_PORT: true, ADMIN_API_KEY: true, LOG_FORMAT: true })
    .safeParse(emptyToUndefined(resolveEnv(process.env)));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue?.path.join('.') || 'env'}: ${issue?.message ?? 'invalid'}`);
  }
  const data = result.data;
  return {
    apiPort: data.API_PORT,
    publicPort: data.PUBLIC_PORT,
    workerHttpPort: data.WORKER_HTTP_PORT,
    adminApiKey: data.ADMIN_API_KEY,
    logFormat: data.LOG_FORMAT,
  };
}

/**
 * The environment for a process this one spawns (`npm start`'s apps, the e2e test's `npm start`):
 * this process's environment with overrides; an undefined override removes the variable.
 */
export function childProcessEnv(overrides: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...overrides })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Nest's logger levels for a configured level. */
export function nestLogLevels(level: string): false | ('log' | 'error' | 'warn' | 'debug' | 'verbose')[] {
  switch (level) {
    case 'silent':
      return false;
    case 'fatal':
    case 'error':
      return ['error'];
    case 'warn':
      return ['error', 'warn'];
    case 'debug':
    case 'trace':
      return ['log', 'error', 'warn', 'debug'];
    default:
      return ['log', 'error', 'warn'];
  }
}
