// What worker.module adds for email: the SMTP sender and the mail queue's processor.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import { MailProcessors } from './mail.processors';
import { MailSender } from './mail.sender';

export const MAIL_PROVIDERS: Provider[] = [
  { provide: MailSender, inject: [CONFIG], useFactory: (config: AppConfig) => new MailSender(config.accounts) },
  MailProcessors,
];
