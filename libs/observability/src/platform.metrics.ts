// The platform's Prometheus metrics, one registry per app instance (tests boot several apps in
// one process). Every app has the same set; each fills the ones it does: the api HTTP requests
// and URLs ingested, the worker builds, shards, imports, IndexNow, webhooks and queues, the
// public server its answers. Gauges that read something (queue counts, pool usage) are read on
// scrape, so an idle process does no work for its metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What a pool gauge reads: pg's Pool has these. */
export interface PoolUsage {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** What the queue gauge asks: BullMQ's Queue has these. */
export interface CountedQueue {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

/** What the stale-serving metrics read on scrape: the public server's manifest reader has these. */
export interface StaleServing {
  /** Answers given from a manifest past its age while Postgres was unreachable, since start. */
  readonly staleAnswers: number;
  /** Sites served so now. */
  readonly staleSites: number;
}

/** How a URL reached the platform: a PUT (REST or GraphQL), an uploaded file, a sitemap import. */
export type IngestVia = 'api' | 'upload' | 'sitemap';

/** Seconds: API requests are milliseconds, a build can take minutes. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const BUILD_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export class PlatformMetrics {
  readonly registry = new Registry();
  /** Every API request: method, route pattern (never the raw path: ids would explode labels), status. */
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** A build from its start to its publish. */
  readonly buildDuration: Histogram<'outcome'>;
  /** Per shard render (read, render, gzip, store) and per build step (plan, publish). */
  readonly stageDuration: Histogram<'stage'>;
  /** Per published build: shards it rendered, and those it kept from the last publish. */
  readonly shards: Counter<'result'>;
  readonly urlsIngested: Counter<'via'>;
  readonly urlsRejected: Counter<'via'>;
  /** One per IndexNow request: `accepted` (2xx), `retry` (429/408/5xx/no answer), `refused` (other 4xx). */
  readonly indexNowSubmissions: Counter<'outcome'>;
  /** One per webhook delivery attempt: `delivered`, `retry`, `failed` (given up). */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** Public answers by status and whether memory answered (`hit`) or the site or bytes were loaded first (`miss`). */
  readonly publicResponses: Counter<'status' | 'cache'>;
  /** Crawler fetches the public server counted but could not keep: `keys`, `waiting`, `unwritten` (crawl.flusher.ts). */
  readonly crawlFetchesDropped: Counter<'reason'>;
  /** The public server's hot path counts here: an array increment per answer, summed on scrape. */
  readonly publicTally = new ResponseTally();
  private readonly pools = new Map<string, PoolUsage>();
  private readonly queues: CountedQueue[] = [];
  private stale: StaleServing | undefined;

  constructor(app: string, opts: { defaultMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ app });
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: 'sitemaps_http_requests_total',
      help: 'API requests answered',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'sitemaps_http_request_duration_seconds',
      help: 'API request duration, from its arrival to the end of the answer',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.buildDuration = new Histogram({
      name: 'sitemaps_build_duration_seconds',
      help: 'Build wall time, start to publish',
      labelNames: ['outcome'],
      buckets: BUILD_BUCKETS,
      registers,
    });
    this.stageDuration = new Histogram({
      name: 'sitemaps_build_stage_duration_seconds',
      help: 'Time per build stage',
      labelNames: ['stage'],
      buckets: BUILD_BUCKETS,
      registers,
    });
    this.shards = new Counter({
      name: 'sitemaps_shards_total',
      help: 'Shards of published builds, rendered or skipped (unchanged)',
      labelNames: ['result'],
      registers,
    });
    this.urlsIngested = new Counter({
      name: 'sitemaps_urls_ingested_total',
      help: 'URL entries stored',
      labelNames: ['via'],
      registers,
    });
    this.urlsRejected = new Counter({
      name: 'sitemaps_urls_rejected_total',
      help: 'URL entries refused as invalid',
      labelNames: ['via'],
      registers,
    });
    this.indexNowSubmissions = new Counter({
      name: 'sitemaps_indexnow_submissions_total',
      help: 'IndexNow requests by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'sitemaps_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers,
    });
    const tally = this.publicTally;
    this.publicResponses = new Counter({
      name: 'sitemaps_public_responses_total',
      help: 'Public server answers by status and cache',
      labelNames: ['status', 'cache'],
      registers,
      collect() {
        tally.drain((cache, status, count) => this.inc({ status: String(status), cache }, count));
      },
    });

    const pools = this.pools;
    new Gauge({
      name: 'sitemaps_pg_pool_connections',
      help: 'Postgres pool connections: total open, idle, and clients waiting for one',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        for (const [name, pool] of pools) {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        }
      },
    });
    const queues = this.queues;
    new Gauge({
      name: 'sitemaps_queue_jobs',
      help: 'BullMQ jobs per queue and state, read from Redis on scrape',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        const counts = await Promise.all(queues.map((queue) => queue.getJobCounts(...QUEUE_STATES)));
        queues.forEach((queue, i) => {
          for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[i]?.[state] ?? 0);
        });
      },
    });
    this.crawlFetchesDropped = new Counter({
      name: 'sitemaps_crawl_fetches_dropped_total',
      help: 'Crawler fetches counted by the public server but not written to Postgres, by reason',
      labelNames: ['reason'],
      registers,
    });
    const stale = () => this.stale;
    let staleCounted = 0;
    new Counter({
      name: 'sitemaps_public_stale_answers_total',
      help: 'Public answers given from a manifest past its age while Postgres was unreachable (stale-if-error)',
      registers,
      collect() {
        const answers = stale()?.staleAnswers ?? 0;
        if (answers > staleCounted) this.inc(answers - staleCounted);
        staleCounted = answers;
      },
    });
    new Gauge({
      name: 'sitemaps_public_stale_sites',
      help: 'Sites the public server serves from a manifest past its age now, Postgres being unreachable',
      registers,
      collect() {
        this.set(stale()?.staleSites ?? 0);
      },
    });
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** The pool's usage is read on each scrape. */
  observePool(name: string, pool: PoolUsage): void {
    this.pools.set(name, pool);
  }

  /** The public server's stale serving is read on each scrape. */
  observeStaleServing(source: StaleServing): void {
    this.stale = source;
  }

  /** The queues' job counts are read on each scrape (one Redis round trip per queue). */
  observeQueues(queues: readonly CountedQueue[]): void {
    this.queues.push(...queues);
  }

  recordIngest(via: IngestVia, stored: number, rejected: number): void {
    if (stored > 0) this.urlsIngested.inc({ via }, stored);
    if (rejected > 0) this.urlsRejected.inc({ via }, rejected);
  }

  /** A build whose manifest switched: its wall time and its shards. */
  recordPublish(build: { wallMs: number | null; shardsRendered: number; shardsSkipped: number }): void {
    if (build.wallMs !== null) this.buildDuration.observe({ outcome: 'published' }, build.wallMs / 1_000);
    this.shards.inc({ result: 'rendered' }, build.shardsRendered);
    this.shards.inc({ result: 'skipped' }, build.shardsSkipped);
  }

  /** Stage timings of a shard render, in ms as the renderer measures them. */
  recordStages(timings: Readonly<Record<string, number>>): void {
    for (const [stage, ms] of Object.entries(timings))
      this.stageDuration.observe({ stage: stage.replace(/Ms$/, '') }, ms / 1_000);
  }

  /** Prometheus' text format. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * Answers by status, in plain arrays indexed by status code: `count` is an array increment, no
 * label lookup, no allocation. A scrape drains them into the Prometheus counter.
 */
export class ResponseTally {
  private readonly hits = new Array<number>(600).fill(0);
  private readonly misses = new Array<number>(600).fill(0);

  count(status: number, hit: boolean): void {
    const counts = hit ? this.hits : this.misses;
    if (status >= 0 && status < 600) counts[status] = (counts[status] as number) + 1;
  }

  drain(into: (cache: 'hit' | 'miss', status: number, count: number) => void): void {
    for (const [cache, counts] of [
      ['hit', this.hits],
      ['miss', this.misses],
    ] as const) {
      for (let status = 0; status < counts.length; status++) {
        const count = counts[status] as number;
        if (count === 0) continue;
        counts[status] = 0;
        into(cache, status, count);
      }
    }
  }
}
