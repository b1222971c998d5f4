export * from './config';
export * from './app-processes';
export * from './client.errors';
export * from './cli-env';
export * from './version';
export * from './secret-files';
export * from './config-docs';
