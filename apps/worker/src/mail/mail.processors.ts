// Sends invitation and password-reset emails (queue `mail`). A job names its row only: it mints
// the link's token here, stores its sha256 on the row (replacing the last), then sends, so no
// token that signs anybody in sits in Redis. A row accepted, used, expired, withdrawn or already
// mailed is skipped. A refusal is retried with backoff (MAIL_ATTEMPTS, MAIL_BACKOFF_MS); the
// invitation shows it (`retrying`, then `failed` with the server's answer), and the last one is
// logged as an error.
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import { PersonRepository } from '@sitemaps/data';
import { hashToken, newToken } from '@sitemaps/domain';
import { mailPayload, QUEUE, type MailPayload } from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { MailSender, type Mail } from './mail.sender';

@Injectable()
export class MailProcessors implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('mail');

  constructor(
    private readonly workers: JobWorkers,
    private readonly sender: MailSender,
    private readonly people: PersonRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.workers.serve(QUEUE.mail, mailPayload, (data, job) => this.send(data, job));
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  async send(data: MailPayload, job: Job) {
    const token = newToken();
    const mail =
      data.kind === 'invitation'
        ? await this.invitation(data.invitationId, token)
        : await this.reset(data.resetId, token);
    if (!mail) return { skipped: 'accepted, used, expired, withdrawn or already mailed' };
    try {
      await this.sender.send(mail);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const last = !this.sender.configured || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (data.kind === 'invitation')
        await this.people.recordInvitationMail(data.invitationId, {
          status: last ? 'failed' : 'retrying',
          error: reason,
        });
      const what = data.kind === 'invitation' ? `invitation ${data.invitationId}` : `password reset ${data.resetId}`;
      if (!last) throw new Error(`${what}: the SMTP server refused (${reason}); retrying`);
      this.logger.error(`${what}: not mailed after ${job.attemptsMade + 1} attempts: ${reason}`);
      throw new UnrecoverableError(`${what} not mailed: ${reason}`);
    }
    if (data.kind === 'invitation')
      await this.people.recordInvitationMail(data.invitationId, { status: 'sent', error: null });
    else await this.people.passwordResetMailed(data.resetId);
    return { sent: data.kind };
  }

  private async invitation(id: string, token: string): Promise<Mail | null> {
    const invitation = await this.people.invitationToMail(id, hashToken(token));
    if (!invitation) return null;
    const link = `${this.config.accounts.consoleUrl}/#/accept-invitation/${token}`;
    return {
      to: invitation.email,
      subject: `You are invited to ${invitation.tenantName} on Sitemaps`,
      text: `You are invited to join ${invitation.tenantName} on Sitemaps as ${invitation.role}.\n\nAccept within 7 days:\n${link}\n`,
    };
  }

  private async reset(id: string, token: string): Promise<Mail | null> {
    const reset = await this.people.passwordResetToMail(id, hashToken(token));
    if (!reset) return null;
    const link = `${this.config.accounts.consoleUrl}/#/reset-password/${token}`;
    return {
      to: reset.email,
      subject: 'Reset your Sitemaps password',
      text: `Someone (we hope you) asked to reset the password of ${reset.email}.\n\nChoose a new one here, within the hour:\n${link}\n\nIf it was not you, ignore this email: nothing changes.\n`,
    };
  }
}
