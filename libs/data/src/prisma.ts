import { Pool } from 'pg';
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
  opts: { max?: number; onIdleError?: (error: Error) => void } = {},
): Pool {
  // Its sockets read into one buffer each, which the fragment COPY reads in place (pgSocket).
  const pool = new Pool({ connectionString: databaseUrl, max: opts.max ?? 10, stream: pgSocket });
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
