// Whether an error means "Redis cannot be reached now" (restarting, a cluster master failing over,
// a slot without a master yet) rather than "this request is wrong" or "this code is wrong". A
// request that met it may be retried: the API answers it 503 with Retry-After, not 500. The error
// comes from ioredis (its own messages, a node's reply, a socket error) or from BullMQ, wrapped in
// any number of `cause`s.

import { someCause } from '@sitemaps/domain';

/** Node's socket errors on a Redis connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** ioredis's error classes for a command that could not be delivered, and BullMQ's for a closed connection. */
const NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError', 'ConnectionClosedError']);

/**
 * ioredis's messages for a connection lost or not made (they carry no code), and the replies of a
 * cluster in a failover: CLUSTERDOWN (a slot has no master), TRYAGAIN (a slot is moving), MASTERDOWN,
 * LOADING (a restarted node reads its data set) and READONLY (a write reached a demoted master).
 */
const MESSAGES =
  /^(Connection is closed|Reached the max retries per request limit|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available|Stream isn't writeable|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|READONLY)/;

/** Seconds a client should wait before retrying a request that met Redis unreachable (Retry-After). */
export const REDIS_RETRY_AFTER_S = 5;

export function isRedisUnavailable(error: unknown): boolean {
  return someCause(
    error,
    ({ name, code, message }) =>
      (typeof name === 'string' && NAMES.has(name)) ||
      (typeof code === 'string' && SOCKET_CODES.has(code)) ||
      (typeof message === 'string' && MESSAGES.test(message)),
  );
}
