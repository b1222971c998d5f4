export * from './domain.errors';
export * from './sites/site.rules';
export * from './shards/shard-naming';
export * from './shards/shard-planner';
export * from './alternates/hreflang-cluster';
export * from './urls/url-content';
export * from './sites/cron.rules';
export * from './sites/robots.rules';
