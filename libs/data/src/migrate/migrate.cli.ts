// `npm run db:migrate` applies pending migrations; `npm run db:migration -- <name>` writes a new
// one from the difference between the committed migrations and prisma/schema.prisma.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDatabaseEnv } from '@sitemaps/config';
import { applyMigrations, diffMigrationsToSchema, PRISMA_DIR } from './migrator';

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  const { databaseUrl } = loadDatabaseEnv();
  if (command === 'apply') {
    const applied = await applyMigrations(databaseUrl);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    return;
  }
  if (command === 'create') {
    if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: npm run db:migration -- <name in snake_case>');
    const sql = await diffMigrationsToSchema(databaseUrl);
    if (!sql) {
      console.log('schema.prisma and the migrations agree: nothing to write');
      return;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(PRISMA_DIR, 'migrations', `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'migration.sql'), `${sql}\n`);
    await writeFile(path.join(PRISMA_DIR, 'migrations', 'migration_lock.toml'), 'provider = "postgresql"\n');
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql — review it before committing`);
    return;
  }
  throw new Error('usage: migrate.cli.ts apply | create <name>');
}

main().catch((error: unknown) => {
  console.error(`db: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
