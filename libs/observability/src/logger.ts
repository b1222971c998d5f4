// One log format for every app: pino JSON lines with the same keys (`level` as its name, `time`
// in epoch ms, `app`, `pid`, `msg`), secrets redacted by path. The apps always write JSON; `npm
// start` shows the lines to people through pino-pretty (scripts/start.ts, LOG_FORMAT).
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { traceLogMixin } from './tracing';

export type LoggedApp = 'api' | 'worker' | 'public' | 'public-primary';

/**
 * Where keys and secrets can appear in a log line: request headers (a raw request logged by a
 * library, an error carrying its request), config, and payload fields named like secrets.
 * pino replaces them with `[redacted]` while it serialises (fast-redact: no copy of the object).
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'apiKey',
  '*.apiKey',
  'adminApiKey',
  '*.adminApiKey',
  'config.api.adminApiKey',
  'key',
  '*.key',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
];

export const REDACTED = '[redacted]';

/** The options every app's root logger is built with (after tracing started, if it does: its ids join each line). */
export function loggerOptions(app: LoggedApp, level: string): LoggerOptions {
  const mixin = traceLogMixin();
  return {
    ...(mixin ? { mixin } : {}),
    level,
    base: { app, pid: process.pid },
    // Names, not numbers: an operator greps `"level":"error"`.
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
  };
}

/** A root logger writing JSON lines to `destination` (stdout when none: pino's own, synchronous). */
export function createLogger(app: LoggedApp, level: string, destination?: DestinationStream): Logger {
  return pino(loggerOptions(app, level), destination ?? pino.destination(1));
}

/** Nest token of the app's root pino logger. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * A process's start-up line ("… listening"), written at any LOG_LEVEL but silent: launchers and
 * tests wait for it, and it says where the process can be reached.
 */
export function logStarted(logger: Logger, fields: Record<string, unknown>, message: string): void {
  if (logger.level === 'silent') return;
  logger.child({}, { level: 'info' }).info(fields, message);
}
