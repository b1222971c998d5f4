export * from './test-database';
export * from './factories';
export * from './raw-http';
export * from './wait-until';
export * from './s3-server';
export * from './redis-cluster';
export * from './postgres-replica';
export * from './tcp-proxy';
