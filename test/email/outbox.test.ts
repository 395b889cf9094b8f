// The development default: each message is written to the outbox folder and its link printed on the
// console; nothing else of the message (no password, no other token) reaches the log.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { composeMail } from '../../src/mail/compose-mail.ts';
import { parseMail } from './smtp-sink.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'signin-outbox-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('mail config', () => {
  it('defaults to the ./data/outbox folder', () => {
    const config = parseConfig({
      issuer: 'http://localhost:3000',
      secrets: { cookieKeys: ['k'.repeat(32)], pairwiseSalt: 's'.repeat(32) },
    });
    expect(config.mail.outbox).toBe('./data/outbox');
    expect(config.mail.smtp).toBeUndefined();
  });

  it('refuses both smtp and outbox', () => {
    expect(() =>
      parseConfig({
        issuer: 'http://localhost:3000',
        secrets: { cookieKeys: ['k'.repeat(32)], pairwiseSalt: 's'.repeat(32) },
        mail: { from: 'a@b.c', outbox: '/tmp/x', smtp: { host: 'localhost' } },
      }),
    ).toThrow(/mail\.outbox/);
  });
});

describe('outbox mailer', () => {
  it('writes the message as a file and logs only its link', async () => {
    const log = vi.spyOn(console, 'info').mockImplementation(() => {});
    const mailer = createMailer({ from: 'Service <no-reply@example.org>', outbox: folder, verifyLinkTtl: 86400, resetLinkTtl: 3600 });
    const link = 'http://localhost:3000/password/reset?token=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
    await mailer.send(await composeMail('reset', 'en', { email: 'ama@example.org', firstName: 'Ama' }, link, 3600));
    const files = await readdir(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const mail = parseMail(await readFile(join(folder, files[0]), 'utf8'), ['ama@example.org']);
    expect(mail.subject).toBe('Choose a new password');
    expect(mail.link).toBe(link);
    expect(mail.html).toContain('Choose a new password');
    const printed = log.mock.calls.flat().join('\n');
    expect(printed).toContain(link);
    expect(printed).not.toContain('ama@example.org');
    log.mockRestore();
  });
});
