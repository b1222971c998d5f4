// One database per test file, cloned from the migrated template (fast: a file copy in Postgres),
// so test files run in parallel without seeing each other's rows.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { Client, Pool } from 'pg';
import { pgSocket } from '@sitemaps/data';
import { withDatabase } from './global-setup';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A migrated database of its own; `empty`: one with no schema at all, to restore a backup into. */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const template = inject('templateDatabase');
  const pid = template.split('_').pop();
  const name = `sitemaps_test_${pid}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${opts.empty ? 'template0' : template}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    name,
    async drop() {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // Connections still closing (an app's pool after its close, a session releasing its
        // client) get a moment: terminated mid-close, a client can emit an error nobody hears.
        for (let waited = 0; waited < 5_000; waited += 50) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if ((rows[0]?.n ?? 0) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis key prefix of its own for a test file's queues. */
export function uniqueQueuePrefix(label = 'test'): string {
  return `${label}-${randomBytes(5).toString('hex')}`;
}

export function testRedisUrl(): string {
  return inject('redisUrl');
}

/**
 * A database of its own and a pg pool on it for one test file: registers the hooks that create
 * them before the file's tests and drop them after. Read `.pool` inside hooks or tests.
 */
export function useTestPool(): { readonly pool: Pool; readonly db: TestDatabase } {
  let db: TestDatabase | undefined;
  let pool: Pool | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    // The sockets of the worker's pool (createPgPool's copyInPlace), so a render test reads as it does.
    pool = new Pool({ connectionString: db.url, stream: pgSocket });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  return {
    get pool() {
      if (!pool) throw new Error('useTestPool: the pool exists only inside hooks and tests');
      return pool;
    },
    get db() {
      if (!db) throw new Error('useTestPool: the database exists only inside hooks and tests');
      return db;
    },
  };
}
