/**
 * The Mailer port: SMTP through nodemailer when `SMTP_URL` is set (e.g.
 * `smtps://user:password@smtp.example.com:465`), else the log: each message is written as a log
 * line at level `warn` (with its links), so that a local install needs no mail server.
 */
import type { Logger } from 'pino';
import type { Mailer } from './domain/kernel/ports.js';

/** Sends with nodemailer over `smtpUrl`, from `from` (an address, or `Name <address>`). */
export async function createSmtpMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/** Writes every message to the log instead of sending it. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async send(message) {
      logger.warn({ mail: message }, `email not sent (no SMTP_URL): "${message.subject}" to ${message.to}`);
    },
  };
}
