// PostgreSQL: the primary and an optional streaming replica.
import { z } from 'zod';
import { secret } from './env-types';

export const databaseEnv = {
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .meta(secret)
    .meta({
      description: '`postgres://…`',
      docDefault: '— (required by the apps; `npm start` and `npm test` start an embedded PostgreSQL when unset)',
    }),
  /** A streaming replica of DATABASE_URL: the public server reads manifests and files there. */
  DATABASE_READ_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .meta(secret)
    .meta({
      description:
        'a streaming replica of `DATABASE_URL`: the public server reads sites, manifests and (postgres driver) files there, and switches to a publish only once the replica has replayed it',
    }),
};
