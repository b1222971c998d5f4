// Invitations and password resets go out by SMTP (SMTP_URL) through nodemailer, from the mail
// queue's jobs: a refusal is thrown, and the job retries with backoff.
import { createTransport, type Transporter } from 'nodemailer';
import type { AccountsConfig } from '@sitemaps/config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export class MailSender {
  private readonly transport: Transporter | undefined;

  constructor(private readonly config: Pick<AccountsConfig, 'smtpUrl' | 'mailFrom'>) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : undefined;
  }

  /** Whether this process can send at all (SMTP_URL is set). */
  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) throw new Error('this worker sends no email: SMTP_URL is not set');
    await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
  }

  close(): void {
    this.transport?.close();
  }
}
