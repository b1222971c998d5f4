// What the `sitemaps` CLI (apps/cli) reads from its environment. The environment wins over the
// config file `sitemaps login` writes, so CI can pass a key without logging in.
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);
const cliEnvSchema = z.object({
  SITEMAPS_API_URL: z.preprocess(blankIsAbsent, z.url({ protocol: /^https?$/ }).optional()),
  SITEMAPS_API_KEY: z.preprocess(blankIsAbsent, z.string().min(1).optional()),
  /** Where `login` keeps the key; default $XDG_CONFIG_HOME/sitemaps/config.json. */
  SITEMAPS_CONFIG: z.preprocess(blankIsAbsent, z.string().optional()),
  XDG_CONFIG_HOME: z.preprocess(blankIsAbsent, z.string().optional()),
  NO_COLOR: z.string().optional(),
});

export interface CliEnv {
  apiUrl?: string;
  apiKey?: string;
  configFile: string;
}

export function parseCliEnv(env: Record<string, string | undefined>): CliEnv {
  const result = cliEnvSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = result.data;
  const configHome = e.XDG_CONFIG_HOME ?? path.join(homedir(), '.config');
  return {
    ...(e.SITEMAPS_API_URL ? { apiUrl: e.SITEMAPS_API_URL } : {}),
    ...(e.SITEMAPS_API_KEY ? { apiKey: e.SITEMAPS_API_KEY } : {}),
    configFile: e.SITEMAPS_CONFIG ?? path.join(configHome, 'sitemaps', 'config.json'),
  };
}

export function loadCliEnv(): CliEnv {
  return parseCliEnv(process.env);
}
