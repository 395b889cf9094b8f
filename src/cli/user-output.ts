// How accounts are printed by `signin user list|show` (the fields: src/users/account-view.ts).
import type { AccountDetails } from '../accounts/store.ts';
export { accountView } from '../users/account-view.ts';

export function accountTable(accounts: AccountDetails[]): string {
  const rows = [['ID', 'EMAIL', 'USERNAME', 'VERIFIED', 'STATUS', 'CREATED']];
  for (const a of accounts) {
    rows.push([
      a.id,
      a.email,
      a.username,
      a.emailVerified ? 'yes' : 'no',
      a.disabledAt ? 'disabled' : 'active',
      a.createdAt.toISOString().slice(0, 10),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}
