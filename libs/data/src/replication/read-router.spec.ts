import { Pool } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../prisma';
import { createRepositories } from '../repositories';
import { ReadRouter } from './read-router';
import { parseLsn } from './wal-position';

describe('ReadRouter without a replica', () => {
  // Nothing listens on port 1: a query would fail, so passing shows none was made.
  const url = 'postgres://nobody@127.0.0.1:1/none';
  const pool = new Pool({ connectionString: url });
  const prisma = createPrismaClient(url);
  const repositories = createRepositories(prisma, pool);
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  it('reads and writes with the primary’s repositories and runs no query of its own', async () => {
    const router = new ReadRouter({ repositories, pool });
    expect(router.hasReplica).toBe(false);
    expect(await router.readerFor('tenant')).toBe(repositories);
    expect(router.writer).toBe(repositories);
    await router.recordWrite('tenant');
    expect(pool.totalCount).toBe(0);
  });
});

describe('parseLsn', () => {
  it('orders positions across the 4 GB segment boundary', () => {
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
  });
});
