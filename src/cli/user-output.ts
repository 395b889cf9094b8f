// How accounts are printed by `signin user list|show`. Built field by field, so that the password
// hash can never reach the output by way of a spread.
import type { AccountDetails } from '../accounts/store.ts';

export function accountView(account: AccountDetails) {
  return {
    id: account.id,
    email: account.email,
    email_verified: account.emailVerified,
    username: account.username,
    first_name: account.firstName,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
    disabled_at: account.disabledAt?.toISOString() ?? null,
  };
}

export function accountTable(accounts: AccountDetails[]): string {
  const rows = [['ID', 'EMAIL', 'USERNAME', 'VERIFIED', 'STATUS', 'CREATED']];
  for (const a of accounts) {
    rows.push([a.id, a.email, a.username, a.emailVerified ? 'yes' : 'no', a.disabledAt ? 'disabled' : 'active', a.createdAt.toISOString().slice(0, 10)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}
