export * from './config';
export * from './app-processes';
export * from './client-errors';
