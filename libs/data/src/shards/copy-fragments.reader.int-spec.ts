import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool, type PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { useTestPool } from '@sitemaps/testing';
import { concatBinaryCopyColumn, copyJoinedColumn } from './copy-fragments.reader';

// The fragment read parses Postgres's protocol and the binary COPY rows itself, in one pass over
// the socket's chunks. Its output must be the bytes pg-copy-streams and the general parse give,
// whatever the values' sizes, and the connection must stay usable after a copy, failed or not:
// on the apps' sockets (TappableSocket: the copy reads their buffer in place) and on pg's own.
describe.each(['tapped', 'plain'] as const)('copyJoinedColumn on a %s socket (real Postgres)', (socket) => {
  let pool: Pool;
  const fixture = useTestPool();
  let plain: Pool | undefined;
  afterAll(async () => {
    await plain?.end();
  });
  beforeAll(async () => {
    pool = fixture.pool;
    if (socket === 'plain') pool = plain = new Pool({ connectionString: fixture.db.url });
    await pool.query(`DROP TABLE IF EXISTS joined; DROP FUNCTION IF EXISTS noisy`);
    await pool.query(`CREATE TABLE joined (id int PRIMARY KEY, v text NOT NULL)`);
    // Small rows, empty ones, multi-byte text, and values larger than a socket read and a block.
    await pool.query(
      `INSERT INTO joined SELECT i, CASE WHEN i % 997 = 0 THEN '' WHEN i % 5 = 0 THEN repeat('ü<x/>', i % 300)
                                         ELSE '<url><loc>https://a.example/' || i || '</loc></url>' END
         FROM generate_series(1, 60000) i`,
    );
    await pool.query(`INSERT INTO joined VALUES (60001, repeat('é', 1500000)), (60002, repeat('z', 3000000))`);
    await pool.query(
      `CREATE FUNCTION noisy(i int, v text) RETURNS text LANGUAGE plpgsql AS $$
       BEGIN IF i % 20000 = 0 THEN RAISE NOTICE 'row %', i; END IF; RETURN v; END $$`,
    );
  });

  const join = async (blocks: AsyncIterable<Buffer>) => {
    const out: Buffer[] = [];
    for await (const block of blocks) out.push(Buffer.from(block));
    return Buffer.concat(out);
  };
  const withClient = async <T>(use: (db: PoolClient) => Promise<T>) => {
    const db = await pool.connect();
    try {
      return await use(db);
    } finally {
      db.release();
    }
  };

  it('gives the bytes of the general parse over pg-copy-streams, and the connection after', async () => {
    const stream = await withClient(
      async (db) => (db as unknown as { connection: { stream: object } }).connection.stream,
    );
    expect(stream.constructor.name).toBe(socket === 'tapped' ? 'TappableSocket' : 'Socket');
    for (const select of ['SELECT v FROM joined ORDER BY id', 'SELECT noisy(id, v) FROM joined ORDER BY id']) {
      const copy = `COPY (${select}) TO STDOUT (FORMAT binary)`;
      const [ours, general, expected] = await withClient(async (db) => [
        await join(copyJoinedColumn(db, copy)),
        await join(concatBinaryCopyColumn(db.query(copyTo(copy)))),
        Buffer.from(
          (await db.query<{ v: string }>(`SELECT string_agg(v, '' ORDER BY id) AS v FROM joined`)).rows[0]?.v ?? '',
        ),
      ]);
      expect(ours.length).toBe(expected.length);
      expect(ours.equals(general)).toBe(true);
      expect(ours.equals(expected)).toBe(true);
    }
  });

  it('fails with the query error, and the connection answers the next query', async () => {
    await withClient(async (db) => {
      const copy = `COPY (SELECT CASE WHEN id = 40000 THEN (1 / (id - id))::text ELSE v END FROM joined ORDER BY id) TO STDOUT (FORMAT binary)`;
      await expect(join(copyJoinedColumn(db, copy))).rejects.toThrow(/division by zero/);
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
      const next = await join(
        copyJoinedColumn(db, `COPY (SELECT v FROM joined WHERE id <= 3 ORDER BY id) TO STDOUT (FORMAT binary)`),
      );
      expect(next.toString()).toContain('https://a.example/3</loc>');
    });
  });

  it.runIf(socket === 'tapped')('reads to the end of a copy its reader left early, and stays usable', async () => {
    await withClient(async (db) => {
      const copy = `COPY (SELECT v FROM joined ORDER BY id) TO STDOUT (FORMAT binary)`;
      for await (const block of copyJoinedColumn(db, copy)) {
        expect(block.length).toBeGreaterThan(0);
        break;
      }
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
    });
  });

  it('refuses a column that is not one non-null value per row, and stays usable', async () => {
    await withClient(async (db) => {
      await expect(
        join(copyJoinedColumn(db, `COPY (SELECT v, id FROM joined) TO STDOUT (FORMAT binary)`)),
      ).rejects.toThrow(/one column per row/);
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
    });
  });

  it('reads on after a slow consumer pauses it, two copies at once, and a large plain result after', async () => {
    const copy = `COPY (SELECT v FROM joined ORDER BY id) TO STDOUT (FORMAT binary)`;
    const slowly = async (blocks: AsyncIterable<Buffer>) => {
      const out: Buffer[] = [];
      for await (const block of blocks) {
        out.push(Buffer.from(block));
        await sleep(2);
      }
      return Buffer.concat(out);
    };
    const [a, b, expected] = await Promise.all([
      withClient((db) => slowly(copyJoinedColumn(db, copy))),
      withClient((db) => join(copyJoinedColumn(db, copy))),
      withClient(async (db) =>
        Buffer.from(
          (await db.query<{ v: string }>(`SELECT string_agg(v, '' ORDER BY id) AS v FROM joined`)).rows[0]?.v ?? '',
        ),
      ),
    ]);
    expect(a.equals(expected)).toBe(true);
    // A slow reader gets the blocks one by one, all full but the last: what their reuse counts on.
    const sizes: number[] = [];
    await withClient(async (db) => {
      const small = `COPY (SELECT v FROM joined WHERE id <= 60000 ORDER BY id) TO STDOUT (FORMAT binary)`;
      for await (const block of copyJoinedColumn(db, small)) {
        sizes.push(block.length);
        await sleep(20);
      }
    });
    expect(sizes.length).toBeGreaterThan(4);
    expect(sizes.slice(0, -1).every((size) => size === 256 * 1024)).toBe(true);
    expect(b.equals(expected)).toBe(true);
    await withClient(async (db) => {
      const { rows } = await db.query<{ v: string }>('SELECT v FROM joined WHERE id > 59990 ORDER BY id');
      expect(rows.at(-1)?.v.length).toBe(3_000_000);
    });
  });
});
