// Runs once per `vitest run` (shared by its projects): finds Postgres and Redis the way `npm start` does (or starts them),
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

interface TestServices {
  postgresUrl: string;
  templateDatabase: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** Vitest calls a global setup once per project (unit, int, e2e, load): the servers and the
 *  template are made once per process and shared, and the last project's teardown stops them. */
const shared = globalThis as { sitemapsTestServices?: { ready: Promise<TestServices>; users: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const state = (shared.sitemapsTestServices ??= { ready: startServices(), users: 0 });
  state.users += 1;
  const services = await state.ready;
  project.provide('postgresUrl', services.postgresUrl);
  project.provide('templateDatabase', services.templateDatabase);
  project.provide('redisUrl', services.redisUrl);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    delete shared.sitemapsTestServices;
    await services.stop();
  };
}

async function startServices(): Promise<TestServices> {
  const env = loadServiceEnv();
  const postgres = await ensurePostgres({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, log: console.log });
  const redis = await ensureRedis({ redisUrl: env.redisUrl, dataDir: env.dataDir, log: console.log });

  const template = `sitemaps_test_tpl_${process.pid}`;
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${template}`);
  await applyMigrations(withDatabase(postgres.url, template));

  const stop = async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`sitemaps_test_${process.pid}_%`, template],
    );
    for (const { datname } of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
    await redis.stop();
    await postgres.stop();
  };
  return { postgresUrl: postgres.url, templateDatabase: template, redisUrl: redis.url, stop };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
