// End-user accounts in SQL. E-mail and username are unique regardless of case, and so are their confusable
// skeletons: two addresses or two names that only look alike are one (email-skeleton.ts, username-key.ts).
// An address is kept with its domain as an A-label. Every account written here obeys the account rules
// (rules.ts): whichever door a user comes through, the same are enforced.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../adapters/sql/database.ts';
import { hashPassword, verifyDecoy, verifyPassword } from './password.ts';
import { emailSkeleton, storedEmail } from './email-skeleton.ts';
import { assertNoProblems, checkAccountDetails, checkNewAccount, checkNewPassword } from './rules.ts';
import { usernameSkeleton } from './username-key.ts';

export interface Account {
  id: string;
  email: string;
  emailVerified: boolean;
  username: string;
  firstName: string;
  /** The verified phone number in E.164 (src/phone/), when the account has one. */
  phoneNumber?: string;
}

/** An account as an administrator sees it: with its dates and whether it may sign in. */
export interface AccountDetails extends Account {
  createdAt: Date;
  updatedAt: Date;
  /** Set while the account is disabled: its password no longer signs in. */
  disabledAt: Date | null;
}

export interface NewAccount {
  email: string;
  username: string;
  firstName: string;
  password: string;
  emailVerified?: boolean;
}

interface Row {
  id: string;
  email: string;
  email_verified: boolean;
  username: string;
  first_name: string;
  password_hash: string;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
  phone_number?: string | null;
}

const toAccount = (r: Row): Account => ({
  id: r.id,
  email: r.email,
  emailVerified: r.email_verified,
  username: r.username,
  firstName: r.first_name,
  ...(r.phone_number ? { phoneNumber: r.phone_number } : {}),
});

const toDetails = (r: Row): AccountDetails => ({
  ...toAccount(r),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  disabledAt: r.disabled_at ? new Date(r.disabled_at) : null,
});

// `%`, `_` and `\` are literal in a search: LIKE would read them as patterns.
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// The new row's values, selected beside set_config(..., true): the setting holds for this statement's
// transaction only, and a plain VALUES list could not carry it.
const NO_DISK_WAIT_SOURCE =
  "SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS no_disk_wait";

export class DuplicateAccountError extends Error {
  /** `lookalike`: the username only looks like a taken one (username-key.ts). */
  constructor(
    readonly field: 'email' | 'username',
    readonly reason: 'taken' | 'lookalike' = 'taken',
  ) {
    super(reason === 'lookalike' ? 'this username looks too much like an existing one' : `an account with this ${field} already exists`);
    this.name = 'DuplicateAccountError';
  }
}

/** An account found by its address for a sign-in (AccountStore.findForSignIn). */
export interface SignInCandidate {
  account: Account;
  passwordHash: string;
  disabled: boolean;
}

/**
 * The candidate's account when the password matches, saying whether it is disabled; undefined otherwise,
 * in the same time whether or not an account was found (a decoy hash is checked then).
 */
export async function checkSignIn(
  candidate: SignInCandidate | undefined,
  password: string,
): Promise<(Account & { disabled: boolean }) | undefined> {
  if (!candidate) return verifyDecoy(password).then(() => undefined);
  return (await verifyPassword(candidate.passwordHash, password)) ? { ...candidate.account, disabled: candidate.disabled } : undefined;
}

export class AccountStore {
  private readonly listeners = new Set<(accountId: string) => void>();

  /** Called after an account's claims change in this process (caches drop their copy). */
  onChange(listener: (accountId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners that a change made elsewhere (the phone number, src/phone/) altered an account's claims. */
  changed(accountId: string): void {
    for (const listener of this.listeners) listener(accountId);
  }

  constructor(private readonly db: Queryable) {}

  /**
   * Throws AccountRuleError when a field breaks the rules, DuplicateAccountError when the e-mail or username is taken.
   * `waitForDisk: false` answers once the row is committed and visible, without waiting for the commit to
   * reach the disk (Postgres's asynchronous commit, for this one statement). The sign-up form asks for it:
   * its answer must take as long for a registered address, whose insert fails and waits for no disk, as
   * for a new one (test/timing). A crash in the fraction of a second before the log is flushed would lose
   * the new account; the verification link, written after it with a normal commit, flushes it.
   */
  async create(input: NewAccount, options: { waitForDisk?: boolean } = {}): Promise<Account> {
    // The password alone is not trimmed: spaces are part of a passphrase.
    // The username in its compatibility form (NFKC: full-width letters become plain ones), as compared.
    // The address in its stored form (its domain as an A-label), so that its length is checked as stored.
    const fields = {
      email: storedEmail(input.email),
      username: input.username.trim().normalize('NFKC'),
      firstName: input.firstName.trim(),
      password: input.password,
    };
    assertNoProblems(checkNewAccount(fields));
    const id = randomUUID();
    const passwordHash = await hashPassword(fields.password);
    try {
      const res = await this.db.query<Row>(
        `INSERT INTO accounts (id, email, email_verified, username, first_name, password_hash, username_skeleton, email_skeleton)
         ${options.waitForDisk === false ? NO_DISK_WAIT_SOURCE : 'VALUES ($1, $2, $3, $4, $5, $6, $7, $8)'} RETURNING *`,
        [
          id,
          fields.email,
          input.emailVerified ?? false,
          fields.username,
          fields.firstName,
          passwordHash,
          usernameSkeleton(fields.username),
          emailSkeleton(fields.email),
        ],
      );
      return toAccount(res.rows[0]);
    } catch (error) {
      throw duplicateOf(error) ?? error;
    }
  }

  /** Whether a new account could not take this username: the same name, or one that looks the same. */
  async usernameConflict(username: string): Promise<DuplicateAccountError['reason'] | undefined> {
    const name = username.trim().normalize('NFKC');
    const res = await this.db.query<{ same: boolean }>(
      'SELECT lower(username) = lower($1) AS same FROM accounts WHERE lower(username) = lower($1) OR username_skeleton = $2 ORDER BY 1 DESC LIMIT 1',
      [name, usernameSkeleton(name)],
    );
    const row = res.rows[0];
    return row && (row.same ? 'taken' : 'lookalike');
  }

  async findById(id: string): Promise<Account | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM accounts WHERE id = $1', [id]);
    return res.rows[0] && toAccount(res.rows[0]);
  }

  /** The account of an address as typed, found the way a sign-in finds it (SQL lower()). */
  async findByEmail(email: string): Promise<Account | undefined> {
    return (await this.findForSignIn(email))?.account;
  }

  /**
   * The account when the password matches, saying whether it is disabled (the caller refuses it then);
   * undefined otherwise, in the same time whether or not the e-mail exists.
   */
  async authenticate(email: string, password: string): Promise<(Account & { disabled: boolean }) | undefined> {
    return checkSignIn(await this.findForSignIn(email), password);
  }

  /**
   * What a sign-in needs of a typed address, in one read: the account and what checks its password. The
   * address is looked up in its stored form (`bücher.example` finds `xn--bcher-kva.example`), and as typed
   * for an account older than that form that could not take it (email-skeleton-backfill.ts). A look-alike
   * is another address: it finds nothing.
   */
  async findForSignIn(email: string): Promise<SignInCandidate | undefined> {
    const res = await this.db.query<Row>(
      'SELECT * FROM accounts WHERE lower(email) IN (lower($1), lower($2)) ORDER BY lower(email) = lower($1) DESC LIMIT 1',
      [storedEmail(email), email.trim()],
    );
    const row = res.rows[0];
    return row && { account: toAccount(row), passwordHash: row.password_hash, disabled: row.disabled_at !== null };
  }

  /** Throws AccountRuleError when the password breaks the rules (they include the account's own details). */
  async setPassword(id: string, password: string): Promise<void> {
    const problem = checkNewPassword(password, await this.findById(id));
    assertNoProblems(problem ? [problem] : []);
    const passwordHash = await hashPassword(password);
    await this.db.query('UPDATE accounts SET password_hash = $2, updated_at = now() WHERE id = $1', [id, passwordHash]);
  }

  async markEmailVerified(id: string): Promise<void> {
    await this.db.query('UPDATE accounts SET email_verified = true, updated_at = now() WHERE id = $1', [id]);
    for (const listener of this.listeners) listener(id);
  }

  /**
   * Sets a new address, verified (whoever sets it proved they read it). Throws AccountRuleError for an
   * address the rules refuse, DuplicateAccountError when another account has taken it meanwhile.
   */
  async changeEmail(id: string, email: string): Promise<void> {
    const account = await this.findById(id);
    if (!account) return;
    const address = storedEmail(email);
    assertNoProblems(checkAccountDetails({ ...account, email: address }).filter((p) => p.field === 'email'));
    try {
      await this.db.query('UPDATE accounts SET email = $2, email_skeleton = $3, email_verified = true, updated_at = now() WHERE id = $1', [
        id,
        address,
        emailSkeleton(address),
      ]);
    } catch (error) {
      throw duplicateOf(error) ?? error;
    }
    for (const listener of this.listeners) listener(id);
  }

  /**
   * Sets the username and first name under the sign-up rules. Throws AccountRuleError for a field the
   * rules refuse, DuplicateAccountError when the username (or a look-alike) is another account's.
   */
  async changeProfile(id: string, profile: { username: string; firstName: string }): Promise<void> {
    const account = await this.findById(id);
    if (!account) return;
    const fields = { email: account.email, username: profile.username.trim().normalize('NFKC'), firstName: profile.firstName.trim() };
    assertNoProblems(checkAccountDetails(fields));
    try {
      await this.db.query('UPDATE accounts SET username = $2, first_name = $3, username_skeleton = $4, updated_at = now() WHERE id = $1', [
        id,
        fields.username,
        fields.firstName,
        usernameSkeleton(fields.username),
      ]);
    } catch (error) {
      throw duplicateOf(error) ?? error;
    }
    for (const listener of this.listeners) listener(id);
  }

  /** The account with its dates and state, as an administrator or an export shows it. */
  async details(id: string): Promise<AccountDetails | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM accounts WHERE id = $1', [id]);
    return res.rows[0] && toDetails(res.rows[0]);
  }

  /** The account with this id, else this e-mail address, else this username (each unique). */
  async lookup(reference: string): Promise<AccountDetails | undefined> {
    const ref = reference.trim();
    const res = await this.db.query<Row>(
      `SELECT * FROM accounts WHERE id = $1 OR lower(email) IN (lower($1), lower($2)) OR lower(username) = lower($1)
       ORDER BY (id = $1) DESC, (lower(email) IN (lower($1), lower($2))) DESC LIMIT 1`,
      [ref, storedEmail(ref)],
    );
    return res.rows[0] && toDetails(res.rows[0]);
  }

  /** Accounts, oldest first; `search` matches part of the e-mail, username or first name, in any case. */
  async list(options: { search?: string; limit?: number } = {}): Promise<AccountDetails[]> {
    const search = options.search?.trim();
    const res = await this.db.query<Row>(
      `SELECT * FROM accounts
       WHERE $1::text IS NULL OR email ILIKE $1 OR username ILIKE $1 OR first_name ILIKE $1
       ORDER BY created_at, id LIMIT $2`,
      [search ? likePattern(search) : null, options.limit ?? 10_000],
    );
    return res.rows.map(toDetails);
  }

  /** Disables or enables sign-in with the account's password; false when there is no such account. */
  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE accounts SET disabled_at = CASE WHEN $2 THEN COALESCE(disabled_at, now()) END, updated_at = now() WHERE id = $1`,
      [id, disabled],
    );
    for (const listener of this.listeners) listener(id);
    return res.rowCount > 0;
  }

  /**
   * Deletes the account row; the rows tied to it by foreign key (consents, e-mail links, session
   * records) go with it. What lives elsewhere (grants, tokens, sessions) is the caller's to end first.
   */
  async delete(id: string): Promise<boolean> {
    const res = await this.db.query('DELETE FROM accounts WHERE id = $1', [id]);
    for (const listener of this.listeners) listener(id);
    return res.rowCount > 0;
  }
}

/** The unique index a write ran into, as the refusal the pages explain; undefined for any other error. */
function duplicateOf(error: unknown): DuplicateAccountError | undefined {
  const constraint = (error as { constraint?: string }).constraint ?? String((error as Error).message);
  // An address that only looks like a registered one is that address: taken, as the same address is.
  if (constraint.includes('accounts_email_key') || constraint.includes('accounts_email_skeleton_key'))
    return new DuplicateAccountError('email');
  if (constraint.includes('accounts_username_key')) return new DuplicateAccountError('username');
  if (constraint.includes('accounts_username_skeleton_key')) return new DuplicateAccountError('username', 'lookalike');
  return undefined;
}
