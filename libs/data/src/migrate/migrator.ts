// Migrations without Prisma's native schema-engine binary, which these machines cannot download:
// Prisma's own engine compiled to WebAssembly, talking to Postgres through the pg driver adapter.
// It keeps Prisma's `_prisma_migrations` history, so `prisma migrate deploy` elsewhere agrees.
// docs/architecture.md ("Database", Prisma offline) says why.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm' with { 'resolution-mode': 'import' };
import pg, { Client } from 'pg';

export const PRISMA_DIR = path.resolve(__dirname, '../../../../prisma');
const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');
const SCHEMA_FILE = path.join(PRISMA_DIR, 'schema.prisma');
const FILTERS = { externalTables: [], externalEnums: [] };
/** Any constant: every process that migrates takes the same Postgres advisory lock. */
const MIGRATION_LOCK_ID = 7_301_552_104;

type EngineModule = typeof import('@prisma/schema-engine-wasm', { with: { 'resolution-mode': 'import' } });
let engineModule: Promise<EngineModule> | undefined;

/** The package is built for bundlers (`import x from './x.wasm'`); instantiate it by hand. */
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const bg = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as EngineModule & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    // The .wasm file is not in the package's exports; it sits beside its JS glue.
    const wasmPath = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return engineModule;
}

type QueryResultLike = { fields?: { dataTypeID: number }[]; rows?: unknown[] };
type RawResult = { columnTypes: number[]; rows: unknown[] };
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
/** Rows of results that had one-byte "char" columns, with those columns' positions. */
const charColumns = new WeakMap<object, number[]>();

/**
 * The engine's schema description reads catalog columns of Postgres' one-byte "char" type
 * (constraint and relation kinds), which the pg driver adapter cannot map. Let them through as
 * text at the driver and remember where they were, so `withCharColumns` can type them as the
 * engine expects.
 */
class CharAsTextClient extends pg.Client {
  override query(...args: unknown[]): never {
    const relabel = <T>(result: T): T => {
      const fields = (result as QueryResultLike | undefined)?.fields ?? [];
      const positions = fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR_OID ? [index] : []));
      for (const index of positions) (fields[index] as { dataTypeID: number }).dataTypeID = PG_TEXT_OID;
      const rows = (result as QueryResultLike | undefined)?.rows;
      if (positions.length > 0 && rows) charColumns.set(rows, positions);
      return result;
    };
    const callbackAt = args.findIndex((arg) => typeof arg === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (error: unknown, result: unknown) => void;
      args[callbackAt] = (error: unknown, result: unknown) => callback(error, error ? result : relabel(result));
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    return (out instanceof Promise ? out.then(relabel) : out) as never;
  }
}

/** Types the remembered "char" columns of every raw result as Character, in and out of transactions. */
function withCharColumns<T extends object>(queryable: T): T {
  return new Proxy(queryable, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'queryRaw') {
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<RawResult>).apply(target, args);
          for (const index of charColumns.get(result.rows) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
          return result;
        };
      }
      if (key === 'startTransaction') {
        return async (...args: unknown[]) =>
          withCharColumns(await (value as (...a: unknown[]) => Promise<object>).apply(target, args));
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

async function withEngine<T>(connectionString: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const schema = await readFile(SCHEMA_FILE, 'utf8');
  // Our own pool, so its connections are closed when we are done (freeing the engine does not).
  const pool = new pg.Pool({ connectionString, Client: CharAsTextClient, max: 2 });
  const pgAdapter = new PrismaPg(pool);
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: pgAdapter.provider,
    adapterName: pgAdapter.adapterName,
    connect: async () => withCharColumns(await pgAdapter.connect()),
    connectToShadowDb: async () => withCharColumns(await pgAdapter.connectToShadowDb()),
  });
  const engine = await SchemaEngine.new({ datamodels: [[SCHEMA_FILE, schema]] }, () => {}, adapter);
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}

export async function readMigrationList(): Promise<MigrationList> {
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockfile = await readFile(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8').catch(() => null);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: lockfile ?? 'provider = "postgresql"\n' },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/** Applies pending migrations under an advisory lock, so concurrent starters wait instead of racing. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const lock = new Client({ connectionString });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const migrationsList = await readMigrationList();
    const out = await withEngine(connectionString, (engine) =>
      engine.applyMigrations({ migrationsList, filters: FILTERS }),
    );
    return out.appliedMigrationNames;
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lock.end();
  }
}

/**
 * SQL that takes the committed migrations to `schema.prisma`; empty when they agree. The engine
 * replays the history on a scratch database that lives only for this call.
 */
export async function diffMigrationsToSchema(connectionString: string): Promise<string> {
  const scratch = `migration_scratch_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${scratch}`);
    const url = new URL(connectionString);
    url.pathname = `/${scratch}`;
    const migrationsList = await readMigrationList();
    const schema = await readFile(SCHEMA_FILE, 'utf8');
    const result = await withEngine(url.toString(), (engine) =>
      engine.diff({
        from: { tag: 'migrations', ...migrationsList },
        to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_FILE, content: schema }] },
        script: true,
        exitCode: null,
        filters: FILTERS,
      }),
    );
    return (result.stdout ?? '').replace(/^-- This is an empty migration\.\s*$/m, '').trim();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}
