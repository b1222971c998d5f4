// One log format for every app: pino JSON lines with the same keys (`level` as its name, `time`
// in epoch ms, `app`, `pid`, `msg`), secrets redacted by path. People running `npm start` get
// the same lines through pino-pretty (a dev dependency) with LOG_FORMAT=pretty.
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type LogFormat = 'json' | 'pretty';
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

export interface LogSettings {
  level: string;
  format: LogFormat;
}

/** The options every app's root logger is built with. */
export function loggerOptions(app: LoggedApp, level: string): LoggerOptions {
  return {
    level,
    base: { app, pid: process.pid },
    // Names, not numbers: an operator greps `"level":"error"`.
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
  };
}

/**
 * A root logger. `json` writes to `destination` (stdout when none: pino's own, synchronous);
 * `pretty` writes human lines through pino-pretty, which only a development install has.
 */
export function createLogger(app: LoggedApp, settings: LogSettings, destination?: DestinationStream): Logger {
  return pino(loggerOptions(app, settings.level), settings.format === 'pretty' ? prettyStream() : destination ?? pino.destination(1));
}

function prettyStream(): DestinationStream {
  const require = createRequire(__filename);
  let pretty: (options: Record<string, unknown>) => DestinationStream;
  try {
    pretty = require('pino-pretty') as typeof pretty;
  } catch {
    throw new Error('LOG_FORMAT=pretty needs pino-pretty, a development dependency: use LOG_FORMAT=json in production');
  }
  return pretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,app', singleLine: true, sync: true });
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
