// A new client secret may leave the old one working for an overlap the owner chooses (none, 1 h, 24 h),
// so that every server of a rolling deployment moves to the new secret in turn. With a 1 h overlap both
// secrets authenticate the application, and its page says until when; once the clock has moved past the
// hour, only the new one does. Without an overlap the old secret fails at once. The CLI does the same
// (`signin client rotate-secret --overlap 1h`). The clock is moved with Date, which the service reads.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyClientSecret } from '../../src/clients/credentials.ts';
import { CLIENT_ARGS, cli, workspace, type Workspace } from '../cli/support.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { postForm } from '../support/flow.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

const MINUTE = 60_000;

let ts: TestService;
let smtp: SmtpSink;
let owner: Owner;
beforeAll(async () => {
  smtp = await startSmtpSink();
  ts = await startTestService({ mail: smtp.mailConfig() });
  owner = await signInToPortal(ts);
});
afterAll(async () => {
  await ts?.stop();
  await smtp?.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

function clockAhead(minutes: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(now + minutes * MINUTE));
}

/** A server application: its secret gets it a token (client_credentials), or `invalid_client`. */
async function serverApp() {
  return registerApp(owner, { name: 'Facturation', description: 'Un service de facturation', app_type: 'server' });
}
const tokenWith = (clientId: string, clientSecret: string) =>
  postForm(`${ts.url}/oauth/token`, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });

/** Generates a new secret from the portal with `overlap`; returns it and the application's page. */
async function rotate(clientId: string, overlap?: string) {
  const confirm = await get(owner, `/apps/${clientId}/rotate-secret`);
  expect(confirm.status).toBe(200);
  const rotated = await post(owner, `/apps/${clientId}/rotate-secret`, overlap ? { overlap } : {}, csrfOf(confirm.text));
  expect(rotated.status).toBe(303);
  const page = await get(owner, `/apps/${clientId}`);
  const secret = /id="client-secret">([A-Za-z0-9]{48})</.exec(page.text)?.[1];
  if (!secret) throw new Error('the new secret was not shown');
  return { secret, page, confirm };
}

describe('a new client secret with an overlap', () => {
  it('offers none, 1 hour and 24 hours, none chosen by default', async () => {
    const app = await serverApp();
    const confirm = await get(owner, `/apps/${app.clientId}/rotate-secret`);
    const choices = [...confirm.text.matchAll(/<input type="radio" name="overlap" value="(\w+)"( checked)?/g)].map(
      (m) => m[1] + (m[2] ?? ''),
    );
    expect(choices).toEqual(['none checked', '1h', '24h']);
  });

  it('with 1 hour: both secrets work and the page says until when; after the hour, only the new one', async () => {
    const app = await serverApp();
    expect((await tokenWith(app.clientId, app.clientSecret)).status).toBe(200);
    const { secret, page } = await rotate(app.clientId, '1h');
    expect(secret).not.toBe(app.clientSecret);
    expect(page.text).toMatch(
      /<p class="notice" role="status">Nouveau secret généré\. L’ancien fonctionne encore jusqu’au [^<]+ UTC\.<\/p>/,
    );
    expect(page.text).toMatch(/id="previous-secret">L’ancien secret fonctionne encore jusqu’au [^<]+ UTC/);
    // The owner's e-mail says the same, not that the old secret stopped working.
    const mail = await smtp.next(owner.email);
    expect(mail.text.replace(/\s+/g, ' ')).toMatch(
      /L’ancien secret fonctionne encore jusqu’au \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC : chaque serveur/,
    );
    expect(mail.text).not.toContain('ne fonctionne plus');

    expect((await tokenWith(app.clientId, app.clientSecret)).status, 'the old secret, during the overlap').toBe(200);
    expect((await tokenWith(app.clientId, secret)).status, 'the new secret').toBe(200);

    clockAhead(59);
    expect((await tokenWith(app.clientId, app.clientSecret)).status, 'the old secret, a minute before the end').toBe(200);
    expect((await get(owner, `/apps/${app.clientId}`)).text).toContain('id="previous-secret"');

    clockAhead(2);
    const refused = await tokenWith(app.clientId, app.clientSecret);
    expect(refused.status, 'the old secret, after the overlap').toBe(401);
    expect(refused.json.error).toBe('invalid_client');
    expect((await tokenWith(app.clientId, secret)).status, 'the new secret, after the overlap').toBe(200);
    expect((await get(owner, `/apps/${app.clientId}`)).text).not.toContain('id="previous-secret"');
  });

  it('without an overlap: the old secret fails at once, and an earlier overlap ends with it', async () => {
    const app = await serverApp();
    const first = await rotate(app.clientId, '24h');
    expect((await tokenWith(app.clientId, app.clientSecret)).status).toBe(200);
    const second = await rotate(app.clientId);
    expect(second.page.text).toContain('Nouveau secret généré. L’ancien ne fonctionne plus.');
    expect(second.page.text).not.toContain('id="previous-secret"');
    expect((await tokenWith(app.clientId, app.clientSecret)).status).toBe(401);
    expect((await tokenWith(app.clientId, first.secret)).status).toBe(401);
    expect((await tokenWith(app.clientId, second.secret)).status).toBe(200);
  });

  it('a website (authorization code) gets the same choice', async () => {
    const app = await registerApp(owner);
    const { confirm } = await rotate(app.clientId, '1h');
    expect(confirm.text).toContain('name="overlap"');
    const stored = await ts.service.context.clients.get(app.clientId);
    expect(stored?.previousSecret && verifyClientSecret(stored.previousSecret.hash, app.clientSecret)).toBe(true);
    expect(stored!.previousSecret!.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * MINUTE);
  });
});

describe('signin client rotate-secret --overlap', { timeout: 240_000 }, () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace();
  });
  afterAll(() => ws.remove());

  it('keeps the old secret for the overlap given, and refuses an overlap it does not offer', async () => {
    const created = JSON.parse((await cli([...CLIENT_ARGS, '--json', '--config', ws.config])).stdout) as {
      client_id: string;
      client_secret: string;
    };
    const result = await cli(['client', 'rotate-secret', created.client_id, '--overlap', '1h', '--json', '--config', ws.config]);
    expect(result.code, result.stderr).toBe(0);
    const rotated = JSON.parse(result.stdout) as { client_secret: string; previous_secret_valid_until: string };
    const until = Date.parse(rotated.previous_secret_valid_until) - Date.now();
    expect(until).toBeGreaterThan(58 * MINUTE);
    expect(until).toBeLessThanOrEqual(60 * MINUTE);

    const db = await openPglite(ws.dataDir);
    try {
      const { rows } = await db.query<{ secret_hash: string; previous_secret_hash: string }>(
        'SELECT secret_hash, previous_secret_hash FROM clients WHERE client_id = $1',
        [created.client_id],
      );
      expect(verifyClientSecret(rows[0].secret_hash, rotated.client_secret)).toBe(true);
      expect(verifyClientSecret(rows[0].previous_secret_hash, created.client_secret)).toBe(true);
    } finally {
      await db.close();
    }

    const plain = await cli(['client', 'rotate-secret', created.client_id, '--config', ws.config]);
    expect(plain.stdout).toContain('The previous secret no longer works.');
    const wrong = await cli(['client', 'rotate-secret', created.client_id, '--overlap', '2h', '--config', ws.config]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--overlap must be one of none, 1h, 24h');
  });
});
