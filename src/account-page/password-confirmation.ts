// The current password asked again before a change that matters (new password, new address, deletion):
// checked by the accounts (current-password.ts), through the same limits as a sign-in. Over the limits or
// wrong, the page is answered here, with the error at the form that asked.
import type Koa from 'koa';
import { confirmCurrentPassword } from '../accounts/current-password.ts';
import type { Account } from '../accounts/store.ts';
import { answerTooManyAttempts } from '../pages/too-many-attempts.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { renderAccount, type AccountForm, type PageState } from './account-pages.ts';

/** True when `password` is the account's; otherwise the page has been answered (400, or 429 over the limits). */
export async function confirmPassword(
  ctx: Koa.Context,
  deps: AccountPageDeps,
  account: Account,
  password: string,
  state: Omit<PageState, 'error' | 'status'> & { form: AccountForm },
): Promise<boolean> {
  const { form, ...page } = state;
  const check = await confirmCurrentPassword(deps, account, password, ctx.ip, 'account_page');
  if (!check.ok && check.reason === 'tooMany') {
    await answerTooManyAttempts(ctx, check.retryAfterSeconds, (message, status) =>
      renderAccount(ctx, deps, account, { ...page, status, error: { form, message: message.key, vars: message.vars } }),
    );
    return false;
  }
  if (!check.ok) {
    await renderAccount(ctx, deps, account, { ...page, status: 400, error: { form, message: 'account.password.wrong' } });
    return false;
  }
  return true;
}
