// POST /account/export: the signed-in user downloads everything the service holds about them, the very
// document `signin user export` prints (src/users/account-export.ts). A POST with the anti-forgery token
// like the page's other forms, answered as a file that no cache may keep.
import type Koa from 'koa';
import { securityEvent } from '../log/security-log.ts';
import { exportAccount } from '../users/account-export.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';

export function downloadData(deps: AccountPageDeps): Koa.Middleware {
  return async function downloadDataRoute(ctx) {
    await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    const data = account && (await exportAccount(deps, account.id));
    if (!account || !data) return backToAccount(ctx);
    securityEvent('account.exported', { account_id: account.id, source: 'account_page' });
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="account-${data.exported_at.slice(0, 10)}.json"`);
    ctx.type = 'application/json';
    // Printed as the CLI prints it (src/cli/output.ts: printJson).
    ctx.body = `${JSON.stringify(data, null, 2)}\n`;
  };
}
