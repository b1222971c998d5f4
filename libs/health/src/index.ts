export * from './readiness';
export * from './health.routes';
