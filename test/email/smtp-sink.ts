// A real SMTP server on loopback (the smtp-server package) that keeps what it receives, with a small
// MIME reader: enough to find the text and HTML parts and the link of the service's own messages.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
  /** The first link of the text part. */
  link: string;
}

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  /** The next message for `to` (waits for it, up to `timeoutMs`). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Config section pointing the service at this server. */
  mailConfig(): { from: string; smtp: { host: string; port: number; secure: false } };
  /** With `holdReplies`: accepts every message held so far, and the next ones at once. */
  release(): void;
  stop(): Promise<void>;
}

/**
 * `holdReplies`: keep each message (so `next` finds it) but hold back the server's acceptance until
 * `release()`, as a slow mail server would; the sender's send does not finish meanwhile.
 */
export async function startSmtpSink(options: { holdReplies?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  let held: Array<() => void> | undefined = options.holdReplies ? [] : undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push(
          parseMail(
            raw,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        waiters.splice(0).forEach((wake) => wake());
        if (held) held.push(() => callback());
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  let taken = new Set<ReceivedMail>();
  return {
    port,
    received,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((m) => !taken.has(m) && m.to.includes(to));
        if (found) {
          taken = new Set([...taken, found]);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no e-mail for ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    mailConfig: () => ({ from: 'Service de test <no-reply@example.org>', smtp: { host: '127.0.0.1', port, secure: false } }),
    release() {
      const pending = held ?? [];
      held = undefined;
      pending.forEach((accept) => accept());
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function parseMail(raw: string, to: string[]): ReceivedMail {
  const { headers, body } = splitHeaders(raw);
  const parts = collectParts(headers, body);
  const text = parts.find((p) => p.type.startsWith('text/plain'))?.content ?? '';
  const html = parts.find((p) => p.type.startsWith('text/html'))?.content ?? '';
  const link = text.match(/https?:\/\/\S+/)?.[0] ?? '';
  return { to, raw, subject: decodeWords(headers.subject ?? ''), text, html, link };
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function collectParts(headers: Record<string, string>, body: string): Array<{ type: string; content: string }> {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = type.match(/boundary="?([^";]+)"?/)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => {
        const inner = splitHeaders(part.replace(/^\n/, ''));
        return collectParts(inner.headers, inner.body);
      });
  }
  return [{ type, content: decodeBody(body, headers['content-transfer-encoding'] ?? '7bit') }];
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}
