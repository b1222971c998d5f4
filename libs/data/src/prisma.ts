import { Pool, type PoolClient } from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';
import { pgSocket } from './pg/tappable-socket';

export { Prisma, PrismaClient } from './generated/prisma/client';

/** Prisma 7 runs queries through the pg driver adapter: no engine binary at run time. */
export function createPrismaClient(databaseUrl: string, opts: { poolSize?: number } = {}): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: opts.poolSize ?? 10 }) });
}

/** Plain pg pool for the bulk paths (ingest, shard reads) where set-based SQL beats an ORM. */
export function createPgPool(
  databaseUrl: string,
  opts: {
    max?: number;
    onIdleError?: (error: Error) => void;
    /**
     * Sockets that read into one buffer each, which the fragment COPY reads in place (pgSocket):
     * for the process that renders shards. Others keep pg's own sockets.
     */
    copyInPlace?: boolean;
  } = {},
): Pool {
  const pool = new Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    ...(opts.copyInPlace ? { stream: pgSocket } : {}),
  });
  const onError = opts.onIdleError ?? (() => undefined);
  // An idle connection that the server drops (restart, failover) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', onError);
  // Nor one that is checked out: pg emits 'error' on the client, and pg-pool listens only while
  // it is idle, so a Postgres restart under load killed the process. The query in flight fails
  // on its own; a client that errored is discarded when it is released.
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/**
 * What a checked-out client's closing statement (ROLLBACK, COMMIT) failed with, if it did: the
 * client is then broken and must be released with it. The server can end a session before its
 * socket's end is read; released plainly then, the client would go back to the pool as idle and
 * fail the next query with ECONNRESET.
 */
export function closingError(closing: Promise<unknown>): Promise<Error | undefined> {
  return closing.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
}

/** Ends a client's failed work (harmless outside a transaction): what to release it with. */
export function rollback(db: PoolClient): Promise<Error | undefined> {
  return closingError(db.query('ROLLBACK'));
}
