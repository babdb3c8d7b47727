/**
 * The Mailer port: SMTP through nodemailer when `SMTP_URL` is set (e.g.
 * `smtps://user:password@smtp.example.com:465`), else the terminal: each message is printed plainly
 * on standard error (where `npm start` shows it), and noted in the log at level `warn`, so that a
 * local install needs no mail server and its person finds the confirmation link (issue 55, item 14).
 */
import type { Logger } from 'pino';
import type { Mailer } from '../domain/kernel/ports.js';

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

/**
 * Prints every message on `out` (default standard error) instead of sending it, framed so that a
 * person reads it among the log lines, and notes it in the log without its text (a link in it is a
 * secret of the account's).
 */
export function createLogMailer(
  logger: Logger,
  out: (text: string) => void = (text) => process.stderr.write(text),
): Mailer {
  return {
    async send(message) {
      const rule = '-'.repeat(72);
      // Control characters other than line feeds are dropped: a display name an anonymous sign-up
      // chose must not move the cursor or rewrite the operator's terminal (escape sequences).
      // eslint-disable-next-line no-control-regex
      const plain = (text: string) => text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
      out(
        plain(
          `\n${rule}\nTitlecard sends no email (no SMTP_URL), so here it is:\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text.trim()}\n${rule}\n\n`,
        ),
      );
      logger.warn({ to: message.to, subject: message.subject }, 'email printed on stderr (no SMTP_URL)');
    },
  };
}
