// What api.module adds for people: sign-in, sessions, invitations and resets, and memberships.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG, REDIS } from '@sitemaps/core';
import type { RedisConnection } from '@sitemaps/jobs';
import { sharedLimiter } from '../http/shared-limiter';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { MAILER, PASSWORD_HASHER, SIGN_IN_LIMITER } from './accounts.tokens';
import { Mailer } from './mailer';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { PasswordHasher } from './password.hasher';

export const ACCOUNT_CONTROLLERS = [AccountsController, MembersController];

export const ACCOUNT_PROVIDERS: Provider[] = [
  {
    provide: SIGN_IN_LIMITER,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection) =>
      sharedLimiter(redis, `${config.queuePrefix}:sign-in-failures`, config.accounts.signInFailures),
  },
  // Each request that mails opens its own SMTP connection: nothing to close at shutdown.
  { provide: MAILER, inject: [CONFIG], useFactory: (config: AppConfig) => new Mailer(config.accounts) },
  { provide: PASSWORD_HASHER, useFactory: () => new PasswordHasher() },
  AccountsService,
  MembersService,
];
