// E-mail addresses that are one address to a reader are one address to the account store: unique by their
// confusable skeleton (Unicode TS #39, characters outside ASCII only, after case folding), with an
// internationalized domain kept as its A-label. Sign-up answers such an address as it answers a registered
// one; an e-mail change refuses it; accounts older than migration 017 are filled in at start.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/sql/database.ts';
import { backfillEmailSkeletons } from '../../src/accounts/email-skeleton-backfill.ts';
import { emailSkeleton, storedEmail } from '../../src/accounts/email-skeleton.ts';
import { AccountStore, DuplicateAccountError } from '../../src/accounts/store.ts';
import { Browser } from '../support/browser.ts';
import { freshPglite } from '../support/databases.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newUser, openSignup, submitSignup } from '../signup/journey.ts';

const CYRILLIC_A = '\u0430';
const LOOKALIKE_DOMAIN = `ex${CYRILLIC_A}mple.org`;

let db: Database;
let accounts: AccountStore;
let n = 0;
const account = (email: string) => {
  n += 1;
  return { email, username: `user_${n}`, firstName: 'Awa', password: 'un thé au bord de la lagune' };
};
const refusal = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e: unknown) => e);

beforeAll(async () => {
  db = await freshPglite();
  accounts = new AccountStore(db);
});
afterAll(() => db?.close());

describe('the skeleton of an address', () => {
  it('is the same for addresses that only look alike, in any case or width', () => {
    for (const lookalike of [
      `alice@${LOOKALIKE_DOMAIN}`,
      `${CYRILLIC_A}lice@example.org`,
      'ＡＬＩＣＥ@ｅｘａｍｐｌｅ.org',
      'Alice@EXAMPLE.org',
      'al\u0456ce@example.org', // Cyrillic і
    ]) {
      expect(emailSkeleton(lookalike), lookalike).toBe(emailSkeleton('alice@example.org'));
    }
  });

  it('keeps two ASCII addresses apart: they are two mailboxes', () => {
    for (const [a, b] of [
      ['bob0@example.org', 'bobo@example.org'],
      ['aIice@example.org', 'alice@example.org'],
      ['rnary@example.org', 'mary@example.org'],
      ['alice@example.org', 'alice@example.com'],
    ]) {
      expect(emailSkeleton(a), `${a} / ${b}`).not.toBe(emailSkeleton(b));
    }
  });

  it('reads an internationalized domain the same way whether typed as U-label or A-label, and stores the A-label', () => {
    expect(storedEmail(' Noé@bücher.example ')).toBe('Noé@xn--bcher-kva.example');
    expect(storedEmail('noe@BÜCHER.Example')).toBe('noe@xn--bcher-kva.example');
    expect(storedEmail('noe@xn--bcher-kva.example')).toBe('noe@xn--bcher-kva.example');
    expect(emailSkeleton('noe@bücher.example')).toBe(emailSkeleton('NOE@xn--bcher-kva.example'));
    expect(emailSkeleton('noe@bücher.example')).not.toBe(emailSkeleton('noe@bucher.example'));
  });
});

describe('the account store', () => {
  it('refuses a new account whose address looks like a registered one, as it refuses the same address', async () => {
    const alice = await accounts.create(account('alice@example.org'));
    for (const lookalike of [`alice@${LOOKALIKE_DOMAIN}`, `${CYRILLIC_A}lice@example.org`, 'ALICE@example.org', 'ａｌｉｃｅ@example.org']) {
      const refused = await refusal(accounts.create(account(lookalike)));
      expect(refused, lookalike).toBeInstanceOf(DuplicateAccountError);
      expect(refused, lookalike).toMatchObject({ field: 'email', reason: 'taken' });
    }
    // A look-alike is not the address: it signs nobody in.
    expect(await accounts.findForSignIn(`alice@${LOOKALIKE_DOMAIN}`)).toBeUndefined();
    expect((await accounts.findForSignIn('Alice@Example.org'))?.account.id).toBe(alice.id);
    // Two ASCII addresses that a font might confuse are two accounts.
    await accounts.create(account('bob0@example.org'));
    await expect(accounts.create(account('bobo@example.org'))).resolves.toMatchObject({ email: 'bobo@example.org' });
  });

  it('keeps an internationalized domain as its A-label, and finds it however it is typed', async () => {
    const noe = await accounts.create(account('noe@bücher.example'));
    expect(noe.email).toBe('noe@xn--bcher-kva.example');
    expect(await refusal(accounts.create(account('noe@xn--bcher-kva.example')))).toMatchObject({ field: 'email' });
    for (const typed of ['noe@bücher.example', 'NOE@BÜCHER.EXAMPLE', 'noe@xn--bcher-kva.example']) {
      expect((await accounts.findForSignIn(typed))?.account.id, typed).toBe(noe.id);
      expect((await accounts.lookup(typed))?.id, typed).toBe(noe.id);
    }
  });

  it('refuses an e-mail change to a look-alike of another account’s address, and stores a new domain as its A-label', async () => {
    await accounts.create(account('carol@example.org'));
    const dave = await accounts.create(account('dave@example.org'));
    const refused = await refusal(accounts.changeEmail(dave.id, `carol@${LOOKALIKE_DOMAIN}`));
    expect(refused).toBeInstanceOf(DuplicateAccountError);
    expect((await accounts.findById(dave.id))?.email).toBe('dave@example.org');
    await accounts.changeEmail(dave.id, 'dave@café.example');
    expect((await accounts.findById(dave.id))?.email).toBe('dave@xn--caf-dma.example');
    // Its own look-alike is free again once it moved: the skeleton moved with it.
    await expect(accounts.create(account(`dave@${LOOKALIKE_DOMAIN}`))).resolves.toBeDefined();
  });
});

describe('accounts created before migration 017', () => {
  /** A row as an older version of the service wrote it: the address as typed, no skeleton. */
  const oldRow = async (email: string, createdAt: string) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO accounts (id, email, username, first_name, password_hash, created_at)
       VALUES ($1, $2, $3, 'Awa', 'x', $4)`,
      [id, email, `old_${id.slice(0, 8)}`, createdAt],
    );
    return id;
  };
  const rowOf = async (id: string) =>
    (await db.query<{ email: string; email_skeleton: string | null }>('SELECT email, email_skeleton FROM accounts WHERE id = $1', [id]))
      .rows[0];

  it('get the stored form and the skeleton at start; of two that were already one address, both stay and the older holds it', async () => {
    const plain = await oldRow('erin@bücher.example', '2020-01-01');
    const olderLook = await oldRow('frank@example.org', '2020-01-02');
    const newerLook = await oldRow(`frank@${LOOKALIKE_DOMAIN}`, '2020-01-03');
    const olderIdn = await oldRow('gina@bücher.example', '2020-01-04');
    const newerIdn = await oldRow('gina@xn--bcher-kva.example', '2020-01-05');

    expect(await backfillEmailSkeletons(db)).toBeGreaterThanOrEqual(3);
    expect(await rowOf(plain)).toEqual({ email: 'erin@xn--bcher-kva.example', email_skeleton: emailSkeleton('erin@bücher.example') });
    expect((await rowOf(olderLook)).email_skeleton).toBe(emailSkeleton('frank@example.org'));
    expect(await rowOf(newerLook)).toEqual({ email: `frank@${LOOKALIKE_DOMAIN}`, email_skeleton: null });
    // The older cannot take the stored form the newer already holds: it keeps its address as typed.
    expect(await rowOf(olderIdn)).toEqual({ email: 'gina@bücher.example', email_skeleton: emailSkeleton('gina@bücher.example') });
    expect((await rowOf(newerIdn)).email_skeleton).toBeNull();

    // The next start has nothing to do; what is left without a skeleton is exactly the pairs to look at.
    expect(await backfillEmailSkeletons(db)).toBe(0);
    const left = await db.query<{ id: string }>('SELECT id FROM accounts WHERE email_skeleton IS NULL ORDER BY created_at');
    expect(left.rows.map((r) => r.id)).toEqual([newerLook, newerIdn]);
    // New addresses are compared with the older account.
    expect(await refusal(accounts.create(account('FRANK@example.org')))).toBeInstanceOf(DuplicateAccountError);
    expect((await accounts.findForSignIn('erin@BÜCHER.example'))?.account.email).toBe('erin@xn--bcher-kva.example');
  });
});

describe('sign-up with a look-alike of a registered address', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.stop());

  it('answers the same page as for the registered address and for a new one, and creates no account', async () => {
    const existing = await svc.createUser({ email: `zoe.${Date.now()}@example.org` });
    const rp = await relyingParty(svc.url, await svc.createClient());
    const pageFor = async (email: string) => {
      const browser = new Browser(svc.url);
      const { form } = await openSignup(browser, rp);
      const done = await submitSignup(browser, form, newUser({ email, username: `nom_${randomUUID().slice(0, 8)}` }));
      return {
        status: done.status,
        html: done.html.replaceAll(email, '<email>').replace(/(\/|%2F)(interaction|authorize)(\/|%2F)[\w-]+/g, '$1$2$3<uid>'),
      };
    };
    const lookalike = existing.email.replace('example.org', LOOKALIKE_DOMAIN);
    const fresh = await pageFor(newUser().email);
    const taken = await pageFor(existing.email);
    const alike = await pageFor(lookalike);
    expect(alike.status).toBe(200);
    expect(alike).toEqual(taken);
    expect(alike).toEqual(fresh);
    const { rows } = await svc.service.context.db.query<{ n: string }>('SELECT count(*) AS n FROM accounts WHERE email = $1', [lookalike]);
    expect(Number(rows[0].n)).toBe(0);
  });
});
