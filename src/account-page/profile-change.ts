// POST /account/profile: the username and first name, under the sign-up rules (src/accounts/rules.ts).
// A username another account holds, or one that only looks like it (username-key.ts), is refused with
// the sign-up page's words: usernames are public handles, so saying it is taken reveals nothing.
import type Koa from 'koa';
import { ruleMessage, USERNAME_CONFLICT_MESSAGES } from '../accounts/rule-messages.ts';
import { AccountRuleError } from '../accounts/rules.ts';
import { DuplicateAccountError } from '../accounts/store.ts';
import { securityEvent } from '../log/security-log.ts';
import { localeFor } from '../pages/language.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { renderAccount } from './account-pages.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';

export function changeProfile(deps: AccountPageDeps): Koa.Middleware {
  return async function changeProfileRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const typed = { username: body.get('username') ?? '', firstName: body.get('first_name') ?? '' };
    try {
      // The store applies the rules; its unique indexes refuse a taken name or a look-alike, even one taken a moment ago.
      await deps.accounts.changeProfile(account.id, typed);
    } catch (error) {
      const message =
        error instanceof AccountRuleError
          ? ruleMessage(error.problems[0])
          : error instanceof DuplicateAccountError && error.field === 'username'
            ? USERNAME_CONFLICT_MESSAGES[error.reason]
            : undefined;
      if (!message) throw error;
      return renderAccount(ctx, deps, account, { locale, status: 400, typed, error: { form: 'profile', message } });
    }
    securityEvent('profile.changed', { account_id: account.id, source: 'account_page' });
    backToAccount(ctx, '?notice=profile');
  };
}
