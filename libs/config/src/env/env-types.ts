// The building blocks of the config schema's areas (./<area>.env.ts), and the metadata each
// variable carries for docs/configuration.md (scripts/config-docs.ts writes the table).
import { isIP } from 'node:net';
import { compile as compileProxyTrust } from '@fastify/proxy-addr';
import { z } from 'zod';

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
// z.coerce.boolean() would read "false" as true.
export const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
/** Marks a variable as a secret: masked in logs, and it may be given as a file (`<NAME>_FILE`). */
export const secret = { secret: true } as const;
export const csv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** The queues a worker can serve: the names of libs/jobs' QUEUE (a spec there keeps them equal). */
export const KNOWN_QUEUES = [
  'build',
  'shard',
  'publish',
  'indexnow',
  'maintenance',
  'import',
  'webhook',
  'verification',
  'mail',
] as const;
export const QUEUE_NAMES_ALL = KNOWN_QUEUES.join(',');
/** A typo would serve nothing and say nothing: only known queue names, at least one. */
export const queueList = csv.pipe(
  z
    .array(
      z.enum(KNOWN_QUEUES, {
        error: (issue) => `unknown queue ${JSON.stringify(issue.input)}; known: ${QUEUE_NAMES_ALL}`,
      }),
    )
    .min(1, `name at least one queue of ${QUEUE_NAMES_ALL}`),
);

/** What Fastify's trustProxy (proxy-addr) takes: `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, `loopback`. */
export function isProxyRange(value: string): boolean {
  // proxy-addr also takes legacy forms (`10.0.0` for 10.0.0.0): only the ones everybody reads alike.
  const address = value.split('/')[0] ?? '';
  if (!isIP(address) && !['loopback', 'linklocal', 'uniquelocal'].includes(value)) return false;
  try {
    compileProxyTrust(value);
    return true;
  } catch {
    return false;
  }
}

/** What node:dns Resolver.setServers takes: `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`. */
export function isResolverAddress(value: string): boolean {
  if (isIP(value)) return true;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const host = match?.[1] ?? match?.[2];
  return !!host && isIP(host) !== 0 && Number(match?.[3]) <= 65_535;
}
