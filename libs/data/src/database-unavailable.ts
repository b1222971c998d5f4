// Whether an error means "the database cannot be reached now" (stopped, restarting, failing over,
// out of connections) rather than "this request is wrong" or "this code is wrong". Such a request
// was not done and may be retried: the API answers it 503 with Retry-After, not 500. The error may
// come from pg itself (a socket error, a SQLSTATE, pg-pool's own messages), from Prisma's pg
// adapter (a DriverAdapterError whose cause has a kind) or from Prisma (P1xxx codes), wrapped in
// any number of `cause`s.

import { someCause } from '@sitemaps/domain';

/** Node's socket errors: nothing listens, the connection was cut, or the name does not resolve. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01–57P03 (administrator shutdown, crash shutdown,
 * cannot connect now: starting up or shutting down), 53300 (too many connections).
 */
const SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Prisma: can't reach (P1001), timed out (P1002, P1008), closed (P1017), pool timeout (P2024), too many connections (P2037). */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);

/** The kinds Prisma's pg adapter gives connection failures. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/** pg's and pg-pool's own messages for a connection lost or never made (they carry no code). */
const MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection is not open|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command/i;

/** Seconds a client should wait before retrying a request that met the database unreachable (Retry-After). */
export const DATABASE_RETRY_AFTER_S = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(
    error,
    ({ code, kind, message }) =>
      (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.test(code) || PRISMA_CODES.has(code))) ||
      // The adapter's `postgres` kind keeps the server's SQLSTATE in `code` (checked above).
      (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) ||
      (typeof message === 'string' && MESSAGES.test(message)),
  );
}
