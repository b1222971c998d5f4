export * from './queues';
export * from './connection';
export * from './job-defaults';
export * from './build.producer';
export * from './webhook.producer';
export * from './verification.producer';
export * from './job-handlers';
export * from './tenant-write-positions';
