export * from './blob.store';
export * from './blob-store.factory';
export * from './fs-blob.store';
export * from './postgres-blob.store';
export * from './s3-blob.store';
