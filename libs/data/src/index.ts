export * from './prisma';
export { applyMigrations } from './migrate/migrator';
