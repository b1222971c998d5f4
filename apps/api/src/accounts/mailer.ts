// Invitations and password resets go out by SMTP (SMTP_URL) through nodemailer, in the request
// that asks for them: the person waits for "sent" or sees that it failed.
import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { AccountsConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export class Mailer {
  private readonly logger = new Logger('mail');
  private readonly transport: Transporter | undefined;

  constructor(private readonly config: Pick<AccountsConfig, 'smtpUrl' | 'mailFrom'>) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : undefined;
  }

  /** Refuses up front when no SMTP server is configured, before anything is written. */
  assertConfigured(): void {
    if (!this.transport)
      throw new DomainError('unavailable', 'MAIL_NOT_CONFIGURED', 'this platform sends no email: SMTP_URL is not set');
  }

  /** A server that refuses or cannot be reached is the platform's problem, said as 503 MAIL_SEND_FAILED. */
  async send(mail: Mail): Promise<void> {
    this.assertConfigured();
    try {
      await this.transport?.sendMail({ from: this.config.mailFrom, ...mail });
    } catch (error) {
      this.logger.error(`mail "${mail.subject}" not sent: ${error instanceof Error ? error.message : String(error)}`);
      throw new DomainError('unavailable', 'MAIL_SEND_FAILED', 'the email could not be sent; try again later');
    }
  }

  close(): void {
    this.transport?.close();
  }
}
