// End-user accounts in SQL. E-mail and username are unique regardless of case. Every account written
// here obeys the account rules (rules.ts): whichever door a user comes through, the same are enforced.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../adapters/sql/database.ts';
import { hashPassword, verifyDecoy, verifyPassword } from './password.ts';
import { assertNoProblems, checkNewAccount, checkNewPassword } from './rules.ts';

export interface Account {
  id: string;
  email: string;
  emailVerified: boolean;
  username: string;
  firstName: string;
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
}

const toAccount = (r: Row): Account => ({
  id: r.id,
  email: r.email,
  emailVerified: r.email_verified,
  username: r.username,
  firstName: r.first_name,
});

export class DuplicateAccountError extends Error {
  constructor(readonly field: 'email' | 'username') {
    super(`an account with this ${field} already exists`);
    this.name = 'DuplicateAccountError';
  }
}

export class AccountStore {
  private readonly listeners = new Set<(accountId: string) => void>();

  /** Called after an account's claims change in this process (caches drop their copy). */
  onChange(listener: (accountId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  constructor(private readonly db: Queryable) {}

  /** Throws AccountRuleError when a field breaks the rules, DuplicateAccountError when the e-mail or username is taken. */
  async create(input: NewAccount): Promise<Account> {
    // The password alone is not trimmed: spaces are part of a passphrase.
    const fields = { email: input.email.trim(), username: input.username.trim(), firstName: input.firstName.trim(), password: input.password };
    assertNoProblems(checkNewAccount(fields));
    const id = randomUUID();
    const passwordHash = await hashPassword(fields.password);
    try {
      const res = await this.db.query<Row>(
        `INSERT INTO accounts (id, email, email_verified, username, first_name, password_hash)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [id, fields.email, input.emailVerified ?? false, fields.username, fields.firstName, passwordHash],
      );
      return toAccount(res.rows[0]);
    } catch (error) {
      const constraint = (error as { constraint?: string }).constraint ?? String((error as Error).message);
      if (constraint.includes('accounts_email_key')) throw new DuplicateAccountError('email');
      if (constraint.includes('accounts_username_key')) throw new DuplicateAccountError('username');
      throw error;
    }
  }

  async findById(id: string): Promise<Account | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM accounts WHERE id = $1', [id]);
    return res.rows[0] && toAccount(res.rows[0]);
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM accounts WHERE lower(email) = lower($1)', [email.trim()]);
    return res.rows[0] && toAccount(res.rows[0]);
  }

  /** The account when the password matches; undefined otherwise, in the same time whether or not the e-mail exists. */
  async authenticate(email: string, password: string): Promise<Account | undefined> {
    const res = await this.db.query<Row>('SELECT * FROM accounts WHERE lower(email) = lower($1)', [email.trim()]);
    const row = res.rows[0];
    if (!row) return verifyDecoy(password).then(() => undefined);
    return (await verifyPassword(row.password_hash, password)) ? toAccount(row) : undefined;
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
}
