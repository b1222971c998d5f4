export * from './config';
export * from './app-processes';
