// Keys, failed-authentication windows, people and the mail they are sent.
import { z } from 'zod';
import { secret } from './env-types';

export const securityEnv = {
  /** The platform's own key: may create tenants. Unset disables platform administration. */
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional().meta(secret).meta({
    description: "the platform's own key, at least 16 characters",
    docDefault: 'unset: platform administration disabled (`npm start` generates one)',
  }),
  /** Times one address may present the same invalid or revoked key per window before that key gets 429. */
  API_AUTH_FAILURE_POINTS: z.coerce.number().int().min(1).default(30).meta({
    description:
      'times one address may present the same invalid or revoked key (by its 12-character prefix) per window; beyond it that key gets 429 with `Retry-After`; a valid key is never refused',
  }),
  API_AUTH_FAILURE_DURATION_S: z.coerce.number().int().min(1).default(60).meta({ docWith: 'API_AUTH_FAILURE_POINTS' }),
  /** Failed sign-ins (email and password) per address and email per window, then 429. */
  SIGN_IN_FAILURE_POINTS: z.coerce.number().int().min(1).default(10).meta({
    description:
      'failed sign-ins per client address and email per window; beyond it that pair gets 429, whatever the password',
  }),
  SIGN_IN_FAILURE_DURATION_S: z.coerce.number().int().min(1).default(900).meta({ docWith: 'SIGN_IN_FAILURE_POINTS' }),
  /** Where people reach the console (links in invitation and password-reset emails); an https URL
   *  also makes the session cookie Secure. Unset: http://localhost:API_PORT/console. */
  CONSOLE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        'where people reach the console: links in emails point under it; an `https` URL makes the session cookie `Secure`',
      docDefault: '`http://localhost:API_PORT/console`',
    }),
  /** The SMTP server invitations and password resets are sent through: smtp:// or smtps://,
   *  credentials in the URL. Unset: those routes answer 503 MAIL_NOT_CONFIGURED. */
  SMTP_URL: z
    .url({ protocol: /^smtps?$/ })
    .optional()
    .meta(secret)
    .meta({
      description:
        'the SMTP server invitations and password resets go through (`smtp://user:pass@host:587`, `smtps://…`); unset: those routes answer 503 `MAIL_NOT_CONFIGURED` ([docs/accounts.md](docs/accounts.md))',
    }),
  /** The From of those emails. */
  MAIL_FROM: z.string().min(3).default('Sitemaps <no-reply@localhost>').meta({ docWith: 'SMTP_URL' }),
  /** Mail jobs (queue `mail`): attempts each (the first included), the first retry's delay (doubling after). */
  MAIL_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(6).meta({
    description:
      "attempts per invitation or password-reset email (the first included) while the SMTP server refuses; the first retry's delay, doubling after: about 5 minutes in all",
  }),
  MAIL_BACKOFF_MS: z.coerce.number().int().min(10).default(10_000).meta({ docWith: 'MAIL_ATTEMPTS' }),
};
