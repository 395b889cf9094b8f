// POST /account/delete: the user deletes their own account, with their password and an explicit
// confirmation. The deletion is the operator's (src/users/account-admin.ts): every session and
// application grant ends, the data goes, and only then is the former address told. An account that
// registered applications in the developer portal is not deleted: other people may depend on them, so
// the page names them and points to the portal, as `signin user delete` does without an option. Once
// deleted, the browser lands on a plain confirmation page (account-deleted.ts), not on a sign-in form.
import type Koa from 'koa';
import { securityEvent } from '../log/security-log.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { localeFor } from '../pages/language.ts';
import { deleteAccount, OwnsApplicationsError } from '../users/account-admin.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { userHandleOf } from '../passkeys/ceremony.ts';
import { showDeletedNext } from './account-deleted.ts';
import { renderAccount } from './account-pages.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';
import { endCurrentSession } from '../provider/engine-session.ts';
import { confirmPassword } from './password-confirmation.ts';

export function deleteOwnAccount(deps: AccountPageDeps): Koa.Middleware {
  return async function deleteOwnAccountRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    // The box first: a deletion by a stray click asks nothing of the password limits.
    if (body.get('confirm') !== 'yes') {
      return renderAccount(ctx, deps, account, {
        locale,
        status: 400,
        error: { form: 'delete', message: 'account.delete.confirmMissing' },
      });
    }
    if (!(await confirmPassword(ctx, deps, account, body.get('password') ?? '', { form: 'delete', locale }))) return;
    let deleted;
    try {
      deleted = await deleteAccount(deps, account.id, 'refuse');
    } catch (error) {
      if (!(error instanceof OwnsApplicationsError)) throw error;
      const apps = error.applications.map((app) => app.name).join(', ');
      return renderAccount(ctx, deps, account, {
        locale,
        status: 409,
        error: { form: 'delete', message: 'account.delete.ownsApps', vars: { apps } },
        linkPortal: true,
      });
    }
    // Its sessions ended with it; this browser also forgets the cookie.
    await endCurrentSession(ctx, deps.provider, deps.config);
    if (deleted) {
      securityEvent('account.deleted', { account_id: account.id, source: 'account_page' });
      // Sent to the former address, which the service no longer holds once this message has left.
      await deps.mail.sendAccountDeleted(account, locale).catch(logMailFailure);
    }
    // The page after it tells the browser that none of the account's passkeys is accepted any more.
    showDeletedNext(ctx, deps, deps.passkeys.enabled ? { rpId: deps.passkeys.rp.id, userId: userHandleOf(account.id) } : undefined);
  };
}
