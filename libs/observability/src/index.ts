export * from './logger';
export * from './platform.metrics';
export * from './metrics.server';
export * from './tracing';
export * from './redact-url';
