export * from './manifest.reader';
