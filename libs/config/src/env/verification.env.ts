// Hostname verification: the mode, the DNS resolvers and the check schedule.
import { z } from 'zod';
import { csv, flag, isResolverAddress } from './env-types';

export const verificationEnv = {
  /** `on`: a new site is pending until its hostname is proven (DNS TXT or HTTP file). `off`
   *  (development, the demo, tests): sites are verified on creation and private names allowed. */
  SITE_VERIFICATION: z.enum(['on', 'off']).default('on').meta({
    description:
      '`on`: a new site is `pending`, not served, until its hostname is proven (see Hostname ownership); `off` is development mode: sites are verified on creation and names such as `demo.localhost` are allowed',
    docDefault: '`on` (`npm start` and the tests: `off` when unset)',
  }),
  /** Resolvers the DNS proof asks, as `ip` or `ip:port`; unset: the system's. */
  VERIFICATION_DNS_SERVERS: csv
    .pipe(
      z.array(z.string().refine(isResolverAddress, 'expected an IP address, optionally with :port ([v6]:port)')).min(1),
    )
    .optional()
    .meta({
      description:
        "comma-separated `ip` or `ip:port` the DNS proof (and the file proof's host lookup) asks; the public server checks crawlers' addresses through them too",
      docDefault: "the system's resolvers",
    }),
  /** First re-check of a failed proof; doubles per failure up to VERIFICATION_RECHECK_MS. */
  VERIFICATION_RETRY_MS: z.coerce.number().int().min(100).default(60_000).meta({
    description:
      "first re-check after a failed one (doubling per failure, up to the re-check interval) / how often a verified site's proof is checked again",
  }),
  /** How often a verified site's proof is checked again. */
  VERIFICATION_RECHECK_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(24 * 3_600_000)
    .meta({ docWith: 'VERIFICATION_RETRY_MS' }),
  /** How long a verified site's proof may be missing before it loses verification. */
  VERIFICATION_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(72 * 3_600_000)
    .meta({
      description: "how long a verified site's proof may be missing before it loses verification",
      docDefault: '`259200000` (3 days)',
    }),
  /** Checks a tenant asks for (POST /verify) run at most once per this long per site; later asks wait for its end. */
  VERIFICATION_REQUEST_INTERVAL_MS: z.coerce.number().int().min(0).default(30_000).meta({
    description:
      'checks a tenant asks for (`POST /v1/sites/:siteId/verify`) run at most once per this long per site; later asks are scheduled at its end',
  }),
  /** How often the worker looks for sites due for a check. */
  VERIFICATION_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .meta({ description: 'how often the worker looks for sites whose check is due' }),
  /** Tests only: the port the HTTP proof connects to instead of 80/443, and private addresses allowed. */
  VERIFICATION_HTTP_PORT: z.coerce.number().int().min(1).max(65_535).optional().meta({
    description: 'tests only: the port the file proof connects to instead of 80/443, and loopback addresses allowed',
  }),
  VERIFICATION_ALLOW_PRIVATE_ADDRESSES: flag.default(false).meta({ docWith: 'VERIFICATION_HTTP_PORT' }),
};
