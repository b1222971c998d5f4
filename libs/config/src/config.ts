// The only place that reads process.env. Every app parses its config once at boot and stops
// with a clear message on the first invalid variable; tests build config from plain objects.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { compile as compileProxyTrust } from '@fastify/proxy-addr';
import { z } from 'zod';
import { SecretFileError, withSecretFiles } from './secret-files';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
// z.coerce.boolean() would read "false" as true.
const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
/** Marks a variable as a secret: masked in logs, and it may be given as a file (`<NAME>_FILE`). */
const secret = { secret: true } as const;
const csv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** The queues a worker can serve: the names of libs/jobs' QUEUE (a spec there keeps them equal). */
export const KNOWN_QUEUES = [
  'build',
  'shard',
  'publish',
  'indexnow',
  'maintenance',
  'import',
  'webhook',
  'verification',
] as const;
export const QUEUE_NAMES_ALL = KNOWN_QUEUES.join(',');
/** A typo would serve nothing and say nothing: only known queue names, at least one. */
const queueList = csv.pipe(
  z
    .array(
      z.enum(KNOWN_QUEUES, {
        error: (issue) => `unknown queue ${JSON.stringify(issue.input)}; known: ${QUEUE_NAMES_ALL}`,
      }),
    )
    .min(1, `name at least one queue of ${QUEUE_NAMES_ALL}`),
);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).meta(secret),
  /** A streaming replica of DATABASE_URL: the public server reads manifests and files there. */
  DATABASE_READ_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .meta(secret),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .default('redis://127.0.0.1:6379')
    .meta(secret),
  /** A Redis Cluster's seed nodes, `host:port,host:port,…`; when set, REDIS_URL is not used. */
  REDIS_CLUSTER_NODES: csv.pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')).min(1)).optional(),
  /** The cluster's AUTH password (`requirepass`/`masterauth`), if it has one. */
  REDIS_CLUSTER_PASSWORD: z.string().min(1).optional().meta(secret),
  API_PORT: port(3000),
  API_HOST: z.string().default('0.0.0.0'),
  /** Where the console's build is (the API serves it under /console); by default dist/console. */
  CONSOLE_DIR: z.string().min(1).optional(),
  PUBLIC_PORT: port(8080),
  PUBLIC_HOST: z.string().default('0.0.0.0'),
  /** Public server processes (node:cluster; Node 20 has no reusePort): one per CPU by default, 1 runs no cluster. */
  PUBLIC_WORKERS: z.coerce.number().int().min(1).max(256).default(Math.min(availableParallelism(), 256)),
  /** Requests one API key may make per window (RateLimiterRedis); a GraphQL request counts once. */
  API_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(100),
  API_RATE_LIMIT_DURATION_S: z.coerce.number().int().min(1).default(1),
  /** Requests all keys of one tenant may make together per window: more keys do not buy more requests. */
  API_TENANT_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(300),
  /** How long an Idempotency-Key and the answer it replays are kept. */
  IDEMPOTENCY_KEY_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3_600),
  /** Largest body of the bulk routes (PUT/DELETE …/urls, POST /graphql): 10,000 URL entries with
   *  alternates and media. Sized with the heap: `npm run bench:limits` sends the largest one. */
  API_BULK_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(32 * 1024 * 1024),
  /** Largest body of every other route (a site with its robots.txt, a key, a build request). */
  API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(1024 * 1024),
  /** JSON values one body may hold, counted before it is parsed: parsed objects cost far more
   *  heap than their bytes (`[{},{},…]`), so bytes alone do not bound memory. */
  API_JSON_MAX_VALUES: z.coerce.number().int().min(100).default(1_000_000),
  /** A request body that sends nothing for this long is cut off (slow uploads hold their import). */
  API_BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Connections of the API's own pool for uploads, apart from the pool that serves every other
   *  request: an upload holds one for its whole life, at the pace of its client. */
  IMPORT_DB_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(6),
  /** Uploads one tenant may have open in one API process: its share of the import pool. */
  IMPORT_UPLOADS_PER_TENANT: z.coerce.number().int().min(1).max(100).default(2),
  /** Validations (POST /v1/validate) one tenant may have running in one API process; more get 429. */
  API_VALIDATIONS_PER_TENANT: z.coerce.number().int().min(1).max(100).default(2),
  /** Validations all tenants together may have running or waiting in one API process; more get 429. */
  API_VALIDATIONS_PENDING: z.coerce.number().int().min(1).max(1_000).default(8),
  /** Times one address may present the same invalid or revoked key per window before that key gets 429. */
  API_AUTH_FAILURE_POINTS: z.coerce.number().int().min(1).default(30),
  API_AUTH_FAILURE_DURATION_S: z.coerce.number().int().min(1).default(60),
  /** Load balancers and reverse proxies in front of the api and the public server: only a peer in
   *  one of these is believed about the client's address (X-Forwarded-For). Unset: nobody is. */
  TRUSTED_PROXIES: csv
    .pipe(z.array(z.string().refine(isProxyRange, 'expected an IP address, a CIDR or loopback|linklocal|uniquelocal')))
    .default([]),
  /** Failed sign-ins (email and password) per address and email per window, then 429. */
  SIGN_IN_FAILURE_POINTS: z.coerce.number().int().min(1).default(10),
  SIGN_IN_FAILURE_DURATION_S: z.coerce.number().int().min(1).default(900),
  /** Where people reach the console (links in invitation and password-reset emails); an https URL
   *  also makes the session cookie Secure. Unset: http://localhost:API_PORT/console. */
  CONSOLE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The SMTP server invitations and password resets are sent through: smtp:// or smtps://,
   *  credentials in the URL. Unset: those routes answer 503 MAIL_NOT_CONFIGURED. */
  SMTP_URL: z
    .url({ protocol: /^smtps?$/ })
    .optional()
    .meta(secret),
  /** The From of those emails. */
  MAIL_FROM: z.string().min(3).default('Sitemaps <no-reply@localhost>'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(50_000),
  /** Aliased fields per GraphQL operation: each alias runs its field again. */
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  /** Characters of one GraphQL document (variables are bounded as JSON): parsing costs memory per token. */
  GRAPHQL_MAX_QUERY_LENGTH: z.coerce.number().int().min(100).default(100_000),
  /** The platform's own key: may create tenants. Unset disables platform administration. */
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional().meta(secret),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** npm start only: how it shows the apps' JSON lines (`pretty`: through pino-pretty; `json`: as written). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('pretty'),
  /** `GET /metrics` (Prometheus) on a listener of its own per app, off when unset; keep the port private. */
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  PUBLIC_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().default('0.0.0.0'),
  /** OTLP endpoint (spans go to `<endpoint>/v1/traces`), or the traces' own; neither: no tracing at all.
   *  The other OTEL_* variables are read by OpenTelemetry's SDK itself (libs/observability/src/tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** OpenTelemetry's own switch: `true` turns tracing off whatever the endpoint. */
  OTEL_SDK_DISABLED: flag.default(false),
  /** Prefix of every Redis key BullMQ writes; tests use one per file. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w-]+$/)
    .default('sitemaps'),
  /** Which queues this worker process serves. */
  WORKER_QUEUES: queueList.default([...KNOWN_QUEUES]),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Shard renders in parallel per process: each streams a file of up to 50 MiB through gzip, so
   * memory grows with it; run more worker processes to render more shards at once. */
  WORKER_SHARD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** The worker's own small HTTP listener (health probes, and what else operators scrape);
   *  0 picks a free port, which the worker logs. */
  WORKER_HTTP_PORT: port(9464),
  WORKER_HTTP_HOST: z.string().default('0.0.0.0'),
  /** Quiet period after the last change before a site rebuilds, and the most a burst can delay it. */
  BUILD_QUIET_MS: z.coerce.number().int().min(0).default(2_000),
  BUILD_MAX_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
  /** A job whose worker stops renewing its lock this long is taken over by another worker. */
  WORKER_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000),
  /**
   * How long a stopping worker waits for its jobs and connections before it exits anyway: jobs are
   * idempotent and another worker takes over a lost lock, so a hung close must not hold a deploy.
   */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * A queue whose jobs have waited this long while this process had a free slot for them and took
   * none: the process has stopped consuming it, and its readiness fails so it gets replaced.
   */
  WORKER_STALL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** A build queued or running this long with no job left in Redis is re-queued. */
  BUILD_STALE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000),
  STORAGE_DRIVER: z.enum(['postgres', 'fs', 's3']).default('postgres'),
  STORAGE_DIR: z.string().default('.data/files'),
  /** The `s3` driver: any S3-compatible object store. Required with it: the bucket. */
  STORAGE_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  /** Prepended to every object key; ends with `/` unless empty. */
  STORAGE_S3_PREFIX: z
    .string()
    .regex(/^([\w.-]+\/)*$/, 'must be empty or path segments ending with /')
    .default(''),
  /** Unset: AWS S3 in STORAGE_S3_REGION. */
  STORAGE_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  STORAGE_S3_REGION: z.string().min(1).default('us-east-1'),
  STORAGE_S3_FORCE_PATH_STYLE: flag.default(false),
  /** Both or neither; neither: the SDK's default chain (instance role, web identity, shared config). */
  STORAGE_S3_ACCESS_KEY_ID: z.string().min(1).optional().meta(secret),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional().meta(secret),
  /** Where a CDN serves the store's files (`<url>/<site id>/<2 hex>/<sha256>.gz`): the public server
   *  then answers a stored shard with a redirect there once it is not in its memory. */
  STORAGE_PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long a file dropped from a manifest stays downloadable for crawlers mid-fetch. */
  BLOB_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60_000),
  /** Where changed URLs are submitted after each publish; `off` submits nowhere. */
  INDEXNOW_ENDPOINTS: z
    .string()
    .transform((value) =>
      value.trim() === 'off'
        ? []
        : value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ })))
    .default(['https://api.indexnow.org/indexnow']),
  /** Whether the public server answers on the platform's own host at /s/<hostname>/… */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Importing existing sitemaps fetches customer-given URLs: private, loopback and link-local
   *  addresses are refused unless this is set (tests serve sitemaps on 127.0.0.1). */
  IMPORT_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  /** Per fetched file (decompressed), per import (all files), files per import, index nesting. */
  IMPORT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  IMPORT_MAX_TOTAL_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(4 * 1024 * 1024 * 1024),
  IMPORT_MAX_FILES: z.coerce.number().int().min(1).default(1_000),
  /** Decompressed bytes per compressed byte, judged past 8 MiB: sitemaps, NDJSON and CSV compress
   *  15 to 25 times; a gzip bomb a thousand. */
  IMPORT_MAX_COMPRESSION_RATIO: z.coerce.number().int().min(2).default(100),
  IMPORT_MAX_DEPTH: z.coerce.number().int().min(0).max(10).default(2),
  IMPORT_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(5),
  /** Whole sitemaps import, and each request (connect, and silence between bytes). */
  IMPORT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30 * 60_000),
  IMPORT_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** Webhook deliveries: attempts each (the first included), the first retry's delay (doubling after), one request's timeout. */
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).default(10_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Deliveries that fail for good in a row before the platform disables their endpoint. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(5),
  /** Endpoints are customer URLs: private, loopback and link-local addresses are refused unless
   *  this is set (tests receive webhooks on 127.0.0.1). */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  /** `on`: a new site is pending until its hostname is proven (DNS TXT or HTTP file). `off`
   *  (development, the demo, tests): sites are verified on creation and private names allowed. */
  SITE_VERIFICATION: z.enum(['on', 'off']).default('on'),
  /** Resolvers the DNS proof asks, as `ip` or `ip:port`; unset: the system's. */
  VERIFICATION_DNS_SERVERS: csv
    .pipe(
      z.array(z.string().refine(isResolverAddress, 'expected an IP address, optionally with :port ([v6]:port)')).min(1),
    )
    .optional(),
  /** First re-check of a failed proof; doubles per failure up to VERIFICATION_RECHECK_MS. */
  VERIFICATION_RETRY_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often a verified site's proof is checked again. */
  VERIFICATION_RECHECK_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(24 * 3_600_000),
  /** How long a verified site's proof may be missing before it loses verification. */
  VERIFICATION_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(72 * 3_600_000),
  /** Checks a tenant asks for (POST /verify) run at most once per this long per site; later asks wait for its end. */
  VERIFICATION_REQUEST_INTERVAL_MS: z.coerce.number().int().min(0).default(30_000),
  /** How often the worker looks for sites due for a check. */
  VERIFICATION_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
  /** Tests only: the port the HTTP proof connects to instead of 80/443, and private addresses allowed. */
  VERIFICATION_HTTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  VERIFICATION_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  /** `on`: the public server counts fetches of sitemap files per crawler and verifies crawlers by DNS. */
  CRAWL_INSIGHT: z.enum(['on', 'off']).default('on'),
  /** How often each public server process adds its counts to Postgres. */
  CRAWL_FLUSH_MS: z.coerce.number().int().min(50).default(5_000),
  /** Hourly crawl counts (and reads of files not read since) older than this are deleted. */
  CRAWL_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  /** How often the worker emits sitemap.first_crawl events and applies the retention. */
  CRAWL_EVENTS_EVERY_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often the worker looks for shards unread past their site's staleAfterDays (sitemap.stale). */
  CRAWL_STALE_EVERY_MS: z.coerce.number().int().min(100).max(86_400_000).default(3_600_000),
  /** How long the public server keeps a crawler address's forward-confirmed reverse DNS verdict. */
  CRAWL_VERDICT_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  /** How long it keeps a failed verdict (a DNS outage among the reasons), at most CRAWL_VERDICT_TTL_MS. */
  CRAWL_FAILED_VERDICT_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(3_600_000),
});

export type Env = z.input<typeof envSchema>;

/** What Fastify's trustProxy (proxy-addr) takes: `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, `loopback`. */
function isProxyRange(value: string): boolean {
  // proxy-addr also takes legacy forms (`10.0.0` for 10.0.0.0): only the ones everybody reads alike.
  const address = value.split('/')[0] ?? '';
  if (!isIP(address) && !['loopback', 'linklocal', 'uniquelocal'].includes(value)) return false;
  try {
    compileProxyTrust(value);
    return true;
  } catch {
    return false;
  }
}

/** Every variable of the schema, and those it marks secret (each may be set as `<NAME>_FILE`). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];
export const SECRET_VARIABLES = CONFIG_VARIABLES.filter((name) => envSchema.shape[name].meta()?.secret === true);

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

/** What node:dns Resolver.setServers takes: `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`. */
function isResolverAddress(value: string): boolean {
  if (isIP(value)) return true;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const host = match?.[1] ?? match?.[2];
  return !!host && isIP(host) !== 0 && Number(match?.[3]) <= 65_535;
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
  public: { host: string; port: number; baseUrl: string | undefined; workers: number };
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
      signInFailures: { points: e.SIGN_IN_FAILURE_POINTS, durationSeconds: e.SIGN_IN_FAILURE_DURATION_S },
    },
    public: { host: e.PUBLIC_HOST, port: e.PUBLIC_PORT, baseUrl: e.PUBLIC_BASE_URL, workers: e.PUBLIC_WORKERS },
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
