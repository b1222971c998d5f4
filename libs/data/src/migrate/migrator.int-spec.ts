import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@sitemaps/testing';
import { Client } from 'pg';
import { applyMigrations, diffMigrationsToSchema } from './migrator';

describe('migrations', () => {
  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());

  it('agree with schema.prisma: replaying them leaves no difference', async () => {
    db = await createTestDatabase();
    expect(await diffMigrationsToSchema(db.url)).toBe('');
  });

  it('are recorded in Prisma history and a second apply is a no-op', async () => {
    // The template was migrated by the global setup; the clone carries its history.
    db ??= await createTestDatabase();
    expect(await applyMigrations(db.url)).toEqual([]);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const rows = await client.query('SELECT migration_name, finished_at FROM _prisma_migrations');
    await client.end();
    expect(rows.rowCount).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.finished_at).not.toBeNull();
  });
});
