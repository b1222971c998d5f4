// The worker: which queues it serves, its concurrency, build timing, IndexNow.
import { z } from 'zod';
import { KNOWN_QUEUES, port, queueList } from './env-types';

export const buildsEnv = {
  /** Which queues this worker process serves. */
  WORKER_QUEUES: queueList.default([...KNOWN_QUEUES]).meta({
    description: 'queues this worker process serves (known names only: an unknown one stops the process naming it)',
  }),
  WORKER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .meta({ description: 'jobs in parallel per queue, 1–64' }),
  /** Shard renders in parallel per process: each streams a file of up to 50 MiB through gzip, so
   * memory grows with it; run more worker processes to render more shards at once. */
  WORKER_SHARD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2).meta({
    description:
      'shard renders in parallel per worker process (each streams up to 50 MiB through gzip); run more workers for more',
  }),
  /** The worker's own small HTTP listener (health probes, and what else operators scrape);
   *  0 picks a free port, which the worker logs. */
  WORKER_HTTP_PORT: port(9464).meta({
    description: "the worker's HTTP listener (health probes); `0` picks a free port, which the worker logs",
  }),
  WORKER_HTTP_HOST: z.string().default('0.0.0.0').meta({ docWith: 'WORKER_HTTP_PORT' }),
  /**
   * Quiet period after the last change before a site rebuilds, and the most a burst can delay it.
   * A change is served this long plus one change build after its PUT (docs/benchmarks.md).
   */
  BUILD_QUIET_MS: z.coerce.number().int().min(0).default(2_000).meta({
    description:
      'quiet period after the last change before a site rebuilds: a PUT is served after this plus one change build (see docs/benchmarks.md, Freshness)',
  }),
  BUILD_MAX_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .meta({ description: 'the most a burst of changes can delay a rebuild' }),
  /** A job whose worker stops renewing its lock this long is taken over by another worker. */
  WORKER_LOCK_MS: z.coerce.number().int().min(1_000).default(30_000).meta({
    description: 'a job whose worker stops renewing its lock this long moves to another worker',
  }),
  /**
   * How long a stopping worker waits for its jobs and connections before it exits anyway: jobs are
   * idempotent and another worker takes over a lost lock, so a hung close must not hold a deploy.
   */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(60_000).meta({
    description: 'a stopping worker that has not closed by then (jobs, connections) logs an error and exits',
  }),
  /**
   * A queue whose jobs have waited this long while this process had a free slot for them and took
   * none: the process has stopped consuming it, and its readiness fails so it gets replaced.
   */
  WORKER_STALL_MS: z.coerce.number().int().min(1_000).default(60_000).meta({
    description:
      'a queue whose jobs waited this long while the process had a free slot and took none: the worker stopped consuming it, and its `/health/ready` fails (see Operations)',
  }),
  /** A build queued or running this long with no job left in Redis is re-queued. */
  BUILD_STALE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000)
    .meta({
      description: 'a build queued or running this long with no job left in Redis is re-queued',
    }),
  /** Where changed URLs are submitted after each publish; `off` submits nowhere, and never later. */
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
    .default(['https://api.indexnow.org/indexnow'])
    .meta({
      description:
        'comma-separated IndexNow endpoints; `off` submits nowhere, and changes made while off are never submitted later',
    }),
};
