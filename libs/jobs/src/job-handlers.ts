// A queue that carries several job names dispatches on them through a handler map, checked when
// the worker starts: a name without a handler refuses to boot (a deploy that forgot one must not
// take jobs it would drop), and a job whose name the map does not know fails once, unrecoverably,
// instead of running the wrong handler or throwing a TypeError that BullMQ would retry.
import { Queue, UnrecoverableError, type DefaultJobOptions, type Job } from 'bullmq';
import { jobTelemetry } from '@sitemaps/observability';
import { DEFAULT_JOB_OPTIONS } from './job-defaults';
import type { QueueName } from './queues';
import type { RedisConnection } from './connection';

export type JobHandlers<Name extends string, Result = unknown> = Record<Name, (job: Job) => Promise<Result>>;

/**
 * The dispatcher for `names`. Throws at once if a name has no handler, or a handler no name
 * (`handlers` typed by the names keeps both in step at compile time; this checks it at run time).
 */
export function jobDispatcher<Name extends string, Result>(
  queue: QueueName,
  names: readonly Name[],
  handlers: JobHandlers<Name, Result>,
): (job: Job) => Promise<Result> {
  const missing = names.filter((name) => typeof handlers[name] !== 'function');
  const unknown = Object.keys(handlers).filter((name) => !(names as readonly string[]).includes(name));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(
      `${queue} queue: ${[
        missing.length > 0 ? `no handler for ${missing.join(', ')}` : '',
        unknown.length > 0 ? `handlers for unknown jobs ${unknown.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')}`,
    );
  }
  const byName = new Map<string, (job: Job) => Promise<Result>>(names.map((name) => [name, handlers[name]]));
  return (job) => {
    const handle = byName.get(job.name);
    if (!handle) return Promise.reject(new UnrecoverableError(`${queue} queue: unknown job ${job.name}`));
    return handle(job);
  };
}

/**
 * The one way to make a queue: the platform's default job options (or `defaultJobOptions` over
 * them) and job telemetry always on, so a producer's traces and the worker's join up.
 */
export function createQueue(
  name: QueueName,
  connection: RedisConnection,
  prefix: string,
  defaultJobOptions: DefaultJobOptions = {},
): Queue {
  return new Queue(name, {
    connection,
    prefix,
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...defaultJobOptions },
    ...jobTelemetry(),
  });
}
