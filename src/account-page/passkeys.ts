// The account page's passkeys: the list (name, created, last used, synced or on one device), and adding,
// renaming and removing one (the list itself: passkey-list.ts). Each change is confirmed by the current password, as a password change is (a
// session alone, say one signed in with a phone code, cannot add or remove a passkey), and adding or
// removing one is told by e-mail. Adding needs the page's script (the browser's dialog); the options are
// asked with the password, and the challenge they carry, issued for this account once the password was
// right, is what the creation is then accepted on. After a removal the page tells the browser, through
// the WebAuthn Signal API, that the passkey is gone and which ones remain.
import type Koa from 'koa';
import { confirmCurrentPassword } from '../accounts/current-password.ts';
import type { Account } from '../accounts/store.ts';
import { translator, type Locale } from '../i18n/index.ts';
import { securityEvent } from '../log/security-log.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { localeFor } from '../pages/language.ts';
import { registrationOptions, verifyRegistration } from '../passkeys/ceremony.ts';
import { passkeyName } from '../passkeys/passkey-name.ts';
import type { Passkey } from '../passkeys/store.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { renderAccount } from './account-pages.ts';
import { rememberRemoved } from './passkey-list.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';
import { confirmPassword } from './password-confirmation.ts';

/** POST /account/passkeys/options: the current password, then the options of a creation, as JSON. */
export function newPasskeyOptions(deps: AccountPageDeps): Koa.Middleware {
  return async function newPasskeyOptionsRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    const t = translator(localeFor(ctx, deps.config));
    ctx.set('Cache-Control', 'no-store');
    if (!account || !deps.passkeys.enabled) {
      ctx.status = 403;
      ctx.body = { message: t('account.passkeys.failed') };
      return;
    }
    const check = await confirmCurrentPassword(deps, account, body.get('current_password') ?? '', ctx.ip, 'account_page');
    if (!check.ok) {
      if (check.reason === 'tooMany') ctx.set('Retry-After', String(check.retryAfterSeconds));
      ctx.status = check.reason === 'tooMany' ? 429 : 400;
      ctx.body = {
        message:
          check.reason === 'tooMany'
            ? t('login.error.tooMany', { minutes: Math.ceil(check.retryAfterSeconds / 60) })
            : t('account.password.wrong'),
      };
      return;
    }
    ctx.body = await registrationOptions(deps.passkeys, account);
  };
}

/** POST /account/passkeys/add: the browser's new passkey, for the challenge issued after the password. */
export function addPasskey(deps: AccountPageDeps): Koa.Middleware {
  return async function addPasskeyRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account || !deps.passkeys.enabled) return backToAccount(ctx);
    const outcome = await verifyRegistration(
      deps.passkeys,
      body.get('credential') ?? '',
      account.id,
      passkeyName(ctx.get('User-Agent'), locale),
    );
    if (!outcome.ok) {
      securityEvent('passkey.refused', { source: 'account_page', account_id: account.id, reason: outcome.reason });
      return renderAccount(ctx, deps, account, { locale, status: 400, error: { form: 'passkeys', message: 'account.passkeys.failed' } });
    }
    securityEvent('passkey.added', { source: 'account_page', account_id: account.id });
    await deps.mail.sendPasskeyAdded(account, outcome.passkey.name, locale).catch(logMailFailure);
    backToAccount(ctx, '?notice=passkey-added');
  };
}

/** The passkey a rename or removal form names, once the current password is confirmed; else the page is answered. */
async function confirmedPasskey(
  ctx: Koa.Context,
  deps: AccountPageDeps,
  body: URLSearchParams,
): Promise<{ account: Account; passkey: Passkey; locale: Locale } | undefined> {
  const locale = localeFor(ctx, deps.config);
  const account = await signedInAccount(ctx, deps);
  if (!account || !deps.passkeys.enabled) {
    backToAccount(ctx);
    return undefined;
  }
  if (!(await confirmPassword(ctx, deps, account, body.get('current_password') ?? '', { form: 'passkeys', locale }))) return undefined;
  const passkey = await deps.passkeys.passkeys.find(body.get('passkey') ?? '');
  if (!passkey || passkey.accountId !== account.id) {
    await renderAccount(ctx, deps, account, { locale, status: 400, error: { form: 'passkeys', message: 'account.passkeys.unknown' } });
    return undefined;
  }
  return { account, passkey, locale };
}

/** POST /account/passkeys/rename */
export function renamePasskey(deps: AccountPageDeps): Koa.Middleware {
  return async function renamePasskeyRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const confirmed = await confirmedPasskey(ctx, deps, body);
    if (!confirmed) return;
    const name = (body.get('name') ?? '').trim() || confirmed.passkey.name;
    await deps.passkeys.passkeys.rename(confirmed.account.id, confirmed.passkey.id, name);
    securityEvent('passkey.renamed', { source: 'account_page', account_id: confirmed.account.id });
    backToAccount(ctx, '?notice=passkey-renamed');
  };
}

/** POST /account/passkeys/remove: allowed for the last one too; the password and its reset stay. */
export function removePasskey(deps: AccountPageDeps): Koa.Middleware {
  return async function removePasskeyRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const confirmed = await confirmedPasskey(ctx, deps, body);
    if (!confirmed) return;
    const { account, passkey, locale } = confirmed;
    await deps.passkeys.passkeys.remove(account.id, passkey.id);
    securityEvent('passkey.removed', { source: 'account_page', account_id: account.id });
    await deps.mail.sendPasskeyRemoved(account, passkey.name, locale).catch(logMailFailure);
    rememberRemoved(ctx, deps, account.id, passkey.id);
    backToAccount(ctx, '?notice=passkey-removed');
  };
}
