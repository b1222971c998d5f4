export * from './prisma';
export { applyMigrations } from './migrate/migrator';
export * from './urls/url.repository';
export * from './sites/site.repository';
export * from './tenants/tenant.repository';
export * from './tenants/quota.service';
export * from './webhooks/webhook.repository';
export * from './idempotency/idempotency-key.repository';
