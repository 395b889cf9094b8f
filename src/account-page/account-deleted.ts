// The page after an account deletion: a plain confirmation ("Votre compte a été supprimé") with a way
// to the service's home, rather than the sign-in form of an account that no longer exists. Shown to the
// browser that deleted the account only, for a few minutes (a signed cookie says it just did): a link to
// it sent to anyone else leads to the account page, not to a message that their account is gone.
import type Koa from 'koa';
import { cookieJar } from '../pages/cookies.ts';
import { localeFor } from '../pages/language.ts';
import { renderPage } from '../pages/render.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { backToAccount } from './account-sign-in.ts';

const DELETED_COOKIE = 'account_deleted';
const DELETED_SECONDS = 10 * 60;

/** Who the deleted account was to the browser's passkeys: the relying party and the user handle. */
interface PasskeySignal {
  rpId: string;
  userId: string;
}

/** After the deletion: this browser may see the confirmation for a few minutes; the answer leads there. */
export function showDeletedNext(ctx: Koa.Context, deps: Pick<AccountPageDeps, 'config'>, passkeys?: PasskeySignal): void {
  cookieJar({ issuer: deps.config.issuer }).write(ctx, DELETED_COOKIE, { deleted: true, passkeys }, DELETED_SECONDS);
  ctx.status = 303;
  ctx.redirect(`${ctx.mountPath ?? ''}/account/deleted`);
}

/** GET /account/deleted */
export function showAccountDeleted(deps: Pick<AccountPageDeps, 'config'>): Koa.Middleware {
  return async function showAccountDeletedRoute(ctx) {
    const locale = localeFor(ctx, deps.config);
    const flash = cookieJar({ issuer: deps.config.issuer }).read<{ deleted?: unknown; passkeys?: PasskeySignal }>(ctx, DELETED_COOKIE);
    if (flash?.deleted !== true) return backToAccount(ctx);
    // The page names nothing of the account: its address and data are gone.
    ctx.set('Cache-Control', 'no-store');
    // The WebAuthn Signal API: the account's passkeys are no longer accepted (the phone stops offering them).
    const passkeys = typeof flash.passkeys?.rpId === 'string' && typeof flash.passkeys.userId === 'string' ? flash.passkeys : null;
    await renderPage(
      ctx,
      'account-deleted',
      { passkeys },
      passkeys ? { locale, returnTo: '/account/deleted', scripts: ['passkeys.js'] } : { locale, returnTo: '/account/deleted' },
    );
  };
}
