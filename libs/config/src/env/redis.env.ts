// Redis: one server or a cluster, and the prefix of every BullMQ key.
import { z } from 'zod';
import { csv, secret } from './env-types';

export const redisEnv = {
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .default('redis://127.0.0.1:6379')
    .meta(secret)
    .meta({
      description: '`redis://` or `rediss://`',
      docDefault: '`redis://127.0.0.1:6379` (`npm start`/`npm test`: discovered, see operations.md)',
    }),
  /** A Redis Cluster's seed nodes, `host:port,host:port,…`; when set, REDIS_URL is not used. */
  REDIS_CLUSTER_NODES: csv
    .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')).min(1))
    .optional()
    .meta({
      description:
        "a Redis Cluster's seed nodes, `host:port,host:port,…`, and its AUTH password; when set, every Redis use goes to the cluster and `REDIS_URL` is ignored (`npm start` then looks for no Redis)",
    }),
  /** The cluster's AUTH password (`requirepass`/`masterauth`), if it has one. */
  REDIS_CLUSTER_PASSWORD: z.string().min(1).optional().meta(secret).meta({ docWith: 'REDIS_CLUSTER_NODES' }),
  /** Prefix of every Redis key BullMQ writes; tests use one per file. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w-]+$/)
    .default('sitemaps')
    .meta({
      description: 'prefix of every Redis key BullMQ writes; on a cluster it becomes the hash tag `{sitemaps}`',
    }),
};
