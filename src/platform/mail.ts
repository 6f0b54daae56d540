import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail through SMTP_URL (nodemailer); `send` answers whether a mail was handed to the server. */
export interface Mailer {
  readonly enabled: boolean;
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

/** Time to connect to the SMTP server and to hear back from it: a slow relay must not hold a request long. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * The mailer of SMTP_URL, or one that sends nothing when it is unset. A mail that the server refuses or cannot
 * take is reported (`false`), not thrown: who asked for it still gets the link they can copy.
 */
export function createMailer(config: Config, log: { warn(data: object, message: string): void }): Mailer {
  if (!config.smtpUrl) return { enabled: false, send: async () => false, close: () => undefined };
  const transport: Transporter = createTransport(
    { url: config.smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS },
    { from: config.mailFrom },
  );
  return {
    enabled: true,
    async send(mail) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
        return true;
      } catch (error) {
        // The message may hold the link: only the reason is logged.
        log.warn({ code: (error as { code?: string }).code, responseCode: (error as { responseCode?: number }).responseCode }, 'Sending mail failed');
        return false;
      }
    },
    close: () => transport.close(),
  };
}
