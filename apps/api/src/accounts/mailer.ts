// Invitations and password resets go out by SMTP (SMTP_URL) through nodemailer, in the request
// that asks for them: the person waits for "sent" or sees that it failed.
import { createTransport, type Transporter } from 'nodemailer';
import type { AccountsConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(private readonly config: Pick<AccountsConfig, 'smtpUrl' | 'mailFrom'>) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : undefined;
  }

  /** Refuses up front when no SMTP server is configured, before anything is written. */
  assertConfigured(): void {
    if (!this.transport)
      throw new DomainError('unavailable', 'MAIL_NOT_CONFIGURED', 'this platform sends no email: SMTP_URL is not set');
  }

  async send(mail: Mail): Promise<void> {
    this.assertConfigured();
    await this.transport?.sendMail({ from: this.config.mailFrom, ...mail });
  }

  close(): void {
    this.transport?.close();
  }
}
