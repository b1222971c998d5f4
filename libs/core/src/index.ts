export * from './core.tokens';
export * from './core.module';
