// A local SMTP server (smtp-server, from the nodemailer project) that keeps what it receives,
// parsed (mailparser): invitations and password resets go through real SMTP in tests.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from '@sitemaps/testing';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailServer {
  /** SMTP_URL for the platform. */
  url: string;
  received: ReceivedMail[];
  /** The first mail to this address received after `since` mails, waited for. */
  mailTo(address: string, since?: number): Promise<ReceivedMail>;
  /** Refuses the next `count` mails with a 451 (a temporary failure, as a busy server says). */
  refuseNext(count: number): void;
  /** How many mails were refused so far. */
  refused(): number;
  close(): Promise<void>;
}

export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  let toRefuse = 0;
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to trust.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      if (toRefuse > 0) {
        toRefuse -= 1;
        refused += 1;
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('try again later (refused by the test)'), { responseCode: 451 })),
        );
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          for (const to of session.envelope.rcptTo)
            received.push({ to: to.address, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailTo: (address, since = 0) =>
      waitUntil(`a mail to ${address}`, async () => received.slice(since).find((mail) => mail.to === address), {
        timeoutMs: 15_000,
      }),
    refuseNext: (count) => {
      toRefuse = count;
    },
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token at the end of a console link in a mail (`…/#/accept-invitation/<token>`). */
export function linkToken(mail: ReceivedMail, route: string): string {
  const match = new RegExp(`/#/${route}/([\\w-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${route} link in: ${mail.text}`);
  return match[1];
}
