// Runs once per `vitest run`: finds Postgres and Redis the way `npm start` does (or starts them),
// migrates a template database, and hands the URLs to every test file through `inject`.
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { applyMigrations } from '@sitemaps/data';
import { loadServiceEnv } from '@sitemaps/config';
import { ensurePostgres, ensureRedis } from '@sitemaps/local-services';
import { Client } from 'pg';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    templateDatabase: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = loadServiceEnv();
  const postgres = await ensurePostgres({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, log: console.log });
  const redis = await ensureRedis({ redisUrl: env.redisUrl, dataDir: env.dataDir, log: console.log });

  const template = `sitemaps_test_tpl_${process.pid}`;
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${template}`);
  await applyMigrations(withDatabase(postgres.url, template));

  project.provide('postgresUrl', postgres.url);
  project.provide('templateDatabase', template);
  project.provide('redisUrl', redis.url);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`sitemaps_test_${process.pid}_%`, template],
    );
    for (const { datname } of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
    await redis.stop();
    await postgres.stop();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
