export * from './local-services';
