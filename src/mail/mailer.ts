// Sends e-mail through nodemailer: over SMTP in production, or into an outbox folder in development,
// where each message becomes a .eml file and its link is printed on the console so that a developer
// can follow it. Nothing else from a message (no password, no other token) is ever logged.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { SignInConfig } from '../config/schema.ts';

// nodemailer is loaded with the first message, not at start: most processes of a deployment send no
// mail for long stretches, and an idle server should not hold what it does not use.
type TransportOptions = Parameters<typeof import('nodemailer').createTransport>[0];
function lazyTransport(options: TransportOptions): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link of the message: the only part of it the outbox may print. */
  link: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export function createMailer(config: SignInConfig['mail']): Mailer {
  const { smtp, outbox, from } = config;
  if (smtp) {
    const transport = lazyTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
      // A slow mail server must not hold a sign-up page open for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send(mail) {
        await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
    };
  }
  const folder = resolve(outbox ?? './data/outbox');
  // Builds the complete MIME message without sending it anywhere.
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      console.info(`[mail outbox] ${file}\n  ${mail.subject}\n  ${mail.link}`);
    },
  };
}
