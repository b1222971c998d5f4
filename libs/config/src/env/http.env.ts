// Where the api and the public server listen, and whom they believe about client addresses.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { csv, isProxyRange, port } from './env-types';

export const httpEnv = {
  API_PORT: port(3000).meta({ description: 'where the api listens' }),
  API_HOST: z.string().default('0.0.0.0').meta({ docWith: 'API_PORT' }),
  /** Where the console's build is (the API serves it under /console); by default dist/console. */
  CONSOLE_DIR: z.string().min(1).optional().meta({
    description:
      "where the console's build is; the api serves it under `/console` (503 saying so when it is not built)",
    docDefault: '`dist/console`',
  }),
  PUBLIC_PORT: port(8080).meta({ description: 'where the public server listens' }),
  PUBLIC_HOST: z.string().default('0.0.0.0').meta({ docWith: 'PUBLIC_PORT' }),
  /** Public server processes (node:cluster; Node 20 has no reusePort): one per CPU by default, 1 runs no cluster. */
  PUBLIC_WORKERS: z.coerce.number().int().min(1).max(256).default(Math.min(availableParallelism(), 256)).meta({
    description:
      'public server processes, 1–256 (node:cluster; `1`: one process, no cluster). In a container with a CPU quota, set it to the quota',
    docDefault: 'the number of CPUs',
  }),
  /** While Postgres is unreachable, a site whose manifest a public process has read is served from it
   *  (stale-if-error) for up to this long after that read; 0: never, such requests answer 503. */
  PUBLIC_STALE_IF_ERROR_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400)
    .meta({
      description:
        "while Postgres is unreachable, the public server keeps serving a site's robots.txt, index and shards from the last manifest it read, for up to this long after that read (0–2592000; `0`: off, such requests answer 503); file bytes not in its memory answer 503 with the `postgres` store",
    }),
  /** Whether the public server answers on the platform's own host at /s/<hostname>/… */
  PUBLIC_BASE_URL: z.url().optional().meta({
    description:
      "the platform's origin, to also serve sites at `/s/<hostname>/…` (cross-submission: the index there lists the files there)",
  }),
  /** Load balancers and reverse proxies in front of the api and the public server: only a peer in
   *  one of these is believed about the client's address (X-Forwarded-For). Unset: nobody is. */
  TRUSTED_PROXIES: csv
    .pipe(z.array(z.string().refine(isProxyRange, 'expected an IP address, a CIDR or loopback|linklocal|uniquelocal')))
    .default([])
    .meta({
      description:
        'addresses or CIDRs (or `loopback`, `uniquelocal`) of proxies in front of the api and public server, whose `X-Forwarded-For` names the client ([docs/custom-domains.md](docs/custom-domains.md))',
      docDefault: 'unset (none)',
    }),
};
