// A pool's connection that the server drops while it is checked out (a Postgres restart or
// failover ends every session) must not crash the process: pg emits 'error' on the client, and
// pg-pool listens only while a client is idle. The query in flight fails; the pool goes on.
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestPool, waitUntil } from '@sitemaps/testing';
import { createPgPool, rollback } from './prisma';

// With pg's own sockets, and with the worker's (copyInPlace: TappableSocket).
describe.each([false, true])('createPgPool (copyInPlace: %s)', (copyInPlace) => {
  const fixture = useTestPool();
  const pool = () => createPgPool(fixture.db.url, { max: 2, copyInPlace });
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('survives the server ending a checked-out connection, and serves the next query', async () => {
    const pg = pool();
    closers.push(() => pg.end());
    const held = await pg.connect();
    const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const closed = new Promise((resolve) => held.once('end', resolve));
    const admin = new Client({ connectionString: fixture.db.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    // The server's notice arrives on the idle checked-out connection: without a listener the process dies here.
    await waitUntil('the held connection to fail', async () => {
      try {
        await held.query('SELECT 1');
        return false;
      } catch {
        return true;
      }
    });
    // The server's error can fail the query before the socket's end is read; only then is the
    // client known broken, and released plainly it is discarded rather than handed out again.
    await closed;
    held.release();
    expect((await pg.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('rollback: keeps a healthy client, and gives the error to discard one the server ended', async () => {
    const pg = pool();
    closers.push(() => pg.end());
    const healthy = await pg.connect();
    await healthy.query('BEGIN');
    await healthy.query('SELECT 1');
    const kept = await rollback(healthy);
    expect(kept).toBeUndefined();
    healthy.release(kept);
    expect([pg.totalCount, pg.idleCount]).toEqual([1, 1]);

    const ended = await pg.connect();
    const pid = (await ended.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await pg.query('SELECT pg_terminate_backend($1)', [pid]);
    await expect(ended.query('SELECT 1')).rejects.toThrow();
    const broken = await rollback(ended);
    expect(broken).toBeInstanceOf(Error);
    const open = pg.totalCount;
    ended.release(broken);
    expect(pg.totalCount).toBe(open - 1);
    expect((await pg.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
