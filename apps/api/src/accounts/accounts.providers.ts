// What api.module adds for people: sign-in, sessions, invitations and resets, and memberships.
import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG, REDIS } from '@sitemaps/core';
import { MailProducer, type RedisConnection } from '@sitemaps/jobs';
import { sharedLimiter } from '../http/shared-limiter';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { MAIL_PRODUCER, PASSWORD_HASHER, SIGN_IN_LIMITER } from './accounts.tokens';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { PasswordHasher } from './password.hasher';

/** Closes the mail queue at shutdown (CoreModule closes the Redis connection after it). */
class AccountClients implements OnApplicationShutdown {
  constructor(@Inject(MAIL_PRODUCER) private readonly mail: MailProducer) {}

  async onApplicationShutdown(): Promise<void> {
    await this.mail.close();
  }
}

export const ACCOUNT_CONTROLLERS = [AccountsController, MembersController];

export const ACCOUNT_PROVIDERS: Provider[] = [
  {
    provide: SIGN_IN_LIMITER,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection) =>
      sharedLimiter(redis, `${config.queuePrefix}:sign-in-failures`, config.accounts.signInFailures),
  },
  // The worker sends: a request stores the row and queues its email.
  {
    provide: MAIL_PRODUCER,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection) =>
      new MailProducer(MailProducer.queue(redis, config.queuePrefix, config.accounts.mailRetry)),
  },
  AccountClients,
  { provide: PASSWORD_HASHER, useFactory: () => new PasswordHasher() },
  AccountsService,
  MembersService,
];
