import { SMTPServer } from 'smtp-server';
import { startServer, type TestServer } from './helpers.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail received for `to` (or already received and not yet taken). */
  next(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a random port of 127.0.0.1 (the `smtp-server` package) that keeps what it receives:
 * the server under test sends through nodemailer to it as to any relay. No TLS, no authentication: a sink.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiting: { to: string; resolve(mail: ReceivedMail): void }[] = [];
  const taken = new Set<ReceivedMail>();
  const deliver = (mail: ReceivedMail) => {
    const i = waiting.findIndex((w) => mail.to.includes(w.to));
    if (i >= 0) {
      taken.add(mail);
      waiting.splice(i, 1)[0]!.resolve(mail);
    }
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        mails.push(mail);
        deliver(mail);
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(to) {
      const ready = mails.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ to: to.toLowerCase(), resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first one-time sign-in link of the web app in a mail (quoted-printable soft breaks undone). */
export function linkIn(mail: ReceivedMail): string {
  const body = mail.raw.replace(/=\r?\n/g, '');
  const match = /https?:\/\/\S+\/app\/auth\/link\/[\w-]+/.exec(body);
  if (!match) throw new Error(`No sign-in link in the mail:\n${body}`);
  return match[0];
}

/** A test server that sends its mail to a sink of its own; `close` stops both. */
export async function startMailingServer(env: Record<string, string> = {}): Promise<{ t: TestServer; smtp: SmtpSink; close(): Promise<void> }> {
  const smtp = await startSmtpSink();
  const t = await startServer({ env: { SMTP_URL: smtp.url, ...env } });
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
