// The embedded store on a full disk. Its data folder is on a small tmpfs of its own; once the service is
// running and a user has signed in, a filler file takes the last byte. Sign-ins then fail where the store
// must add a page to a table ("could not extend file ...: No space left on device"): each such request is a
// 503 (JSON for the protocol, the outage page for people), never a 500; /readyz says 503 while writes fail;
// the log gives the cause once, with no stack trace. Once the filler is deleted, everything works again and
// nothing was lost: the account made before signs in, its refresh token still refreshes.
//
// Mounting a tmpfs needs root (or CAP_SYS_ADMIN): a real full disk, not an error made up in front of PGlite,
// is what shows that PGlite survives it and what it answers. Without the right, the test fails and says so.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isPage, type Page } from '../support/browser.ts';
import { postForm, refreshGrant, signIn } from '../support/flow.ts';
import { relyingParty, type RelyingParty } from '../support/relying-party.ts';
import { startTestService, type TestClient, type TestService, type TestUser } from '../support/service.ts';
import { waitUntilReady } from './helpers/outage.ts';

const DISK = '160m';
const MOST_ATTEMPTS = 80;

let folder: string | undefined;
let mounted = false;
let service: TestService | undefined;
const logChunks: string[] = [];
const logLines = (): Array<Record<string, unknown>> =>
  logChunks.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'signin-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK}`, 'tmpfs', folder], { stdio: 'pipe' });
  } catch (error) {
    const ci = process.env.CI ? ' (CI: this test must run, so this is a failure, not a skip)' : '';
    throw new Error(
      `cannot mount a ${DISK} tmpfs on ${folder} for the embedded store's full disk: run the tests as root or with CAP_SYS_ADMIN${ci}`,
      { cause: error },
    );
  }
  mounted = true;
  const many = { points: 10_000, windowSeconds: 60 };
  service = await startTestService(
    {
      storage: { kind: 'embedded', dataDir: join(folder, 'data') },
      log: { level: 'info', pretty: false },
      rateLimit: { loginPerAccount: many, loginPerIp: many },
    },
    { logDestination: { write: (chunk: string | Buffer) => void logChunks.push(String(chunk)) } },
  );
}, 120_000);

afterAll(async () => {
  await service?.stop().catch(() => {});
  if (mounted) {
    try {
      execFileSync('umount', [folder!], { stdio: 'pipe' });
    } catch {
      // something still holds it: detach it now, the kernel frees it when released
      execFileSync('umount', ['-l', folder!], { stdio: 'pipe' });
    }
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
}, 60_000);

/** Writes zeros to `path` until the file system has no byte left; returns how many were written. */
function fillDisk(path: string): number {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

interface Answer {
  what: string;
  status: number;
  body: string;
  type: string;
}

const answer = (what: string, page: Page): Answer => ({
  what,
  status: page.status,
  body: page.html,
  type: String(page.headers['content-type'] ?? ''),
});

/** One sign-in by a new browser, step by step, until a step fails: the answers of its steps. */
async function signInSteps(url: string, rp: RelyingParty, user: TestUser, client: TestClient): Promise<Answer[]> {
  const answers: Answer[] = [];
  const browser = new Browser(url, { 'accept-language': 'fr-FR,fr;q=0.9', accept: 'text/html' });
  const start = await rp.start();
  let step = await browser.open(start.url);
  for (let i = 0; i < 4 && isPage(step); i += 1) {
    const page = step;
    answers.push(answer(i === 0 ? 'sign-in page' : 'sign-in step', page));
    if (page.status !== 200) return answers;
    step = /name="password"/.test(page.html)
      ? await browser.submit(page, /\/login$/, { email: user.email, password: user.password })
      : await browser.submit(page, /\/consent$/, { scope: ['openid', 'email', 'profile'] });
  }
  if (isPage(step)) return answers;
  const exchanged = await postForm(
    `${url}/oauth/token`,
    {
      grant_type: 'authorization_code',
      code: step.searchParams.get('code') ?? '',
      redirect_uri: client.redirectUri,
      code_verifier: start.verifier,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    },
    { accept: 'application/json' },
  );
  answers.push({
    what: 'code exchange',
    status: exchanged.status,
    body: exchanged.text,
    type: exchanged.headers.get('content-type') ?? '',
  });
  return answers;
}

function expectOutageAnswer(a: Answer): void {
  expect(a.body, a.what).not.toMatch(/at \w+ \(|node_modules|Error:|No space left|could not extend/);
  if (a.type.includes('json')) {
    expect(JSON.parse(a.body), a.what).toMatchObject({ error: 'temporarily_unavailable' });
  } else {
    expect(a.type, a.what).toMatch(/text\/html/);
    expect(a.body, a.what).toContain('momentanément indisponible');
  }
}

describe('the embedded store on a full disk', () => {
  it('answers 503 while it cannot write, says so on /readyz and in one log line, and loses nothing', async () => {
    const s = service!;
    const client = await s.createClient();
    const user = await s.createUser();
    const rp = await relyingParty(s.url, client);
    // Made before the disk fills, and left alone until it has space again.
    const kept = (await signIn(s.url, rp, user)).tokens;
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);

    const filler = join(folder!, 'filler');
    const filled = fillDisk(filler);
    const before = logLines().length;

    const answers: Answer[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && answers.filter((a) => a.status === 503).length < 5; i += 1) {
      answers.push(...(await signInSteps(s.url, rp, user, client)));
    }
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(`${a.what} ${a.status}`, (counts.get(`${a.what} ${a.status}`) ?? 0) + 1);
    const tally = [...counts].map(([what, n]) => `${what}: ${n}`);
    console.log(`disk full (${Math.round(filled / 2 ** 20)} MB of filler): ${answers.length} answers, ${tally.join(', ')}`);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length, tally.join(', ')).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    for (const a of refused) expectOutageAnswer(a);

    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

    // The log: the cause once for the burst, no stack trace, no unexpected error.
    const lines = logLines().slice(before);
    const causes = lines.filter((l) => l.msg === 'storage outage');
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ backend: 'embedded', writes_refused: true });
    expect(String(causes[0].cause)).toMatch(/No space left on device/);
    expect(lines.filter((l) => l.event === 'error.unexpected' || JSON.stringify(l).includes('    at '))).toEqual([]);
    expect(lines.filter((l) => l.event === 'storage.unavailable').length).toBeGreaterThanOrEqual(refused.length);

    rmSync(filler);
    const recoveredMs = await waitUntilReady(s.url, 30_000);
    console.log(`space back: /readyz 200 after ${recoveredMs} ms`);

    // Nothing lost: the tokens and the account made before the disk filled work as before.
    const info = await fetch(`${s.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${kept.access_token}` } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ email: user.email });
    const refreshed = await refreshGrant(s.url, client, kept.refresh_token!);
    expect(refreshed.status, refreshed.text).toBe(200);
    const again = await signInSteps(s.url, rp, user, client);
    expect(again.map((a) => a.status)).toEqual(again.map(() => 200));
    expect(again.at(-1)?.what).toBe('code exchange');
  });
});
