// Who is signed in to the account page (the engine session's account), the page's own sign-in form,
// and what every form post of the page starts with.
import type Koa from 'koa';
import { loggedSignIn } from '../accounts/logged-sign-in.ts';
import type { Account } from '../accounts/store.ts';
import { readCheckedForm } from '../pages/anti-forgery.ts';
import { localeFor } from '../pages/language.ts';
import { answerTooManyAttempts } from '../pages/too-many-attempts.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { renderAccountLogin } from './account-pages.ts';
import { currentSession, startSession } from '../provider/engine-session.ts';

/** The account of this browser's engine session, if someone is signed in. */
export async function signedInAccount(
  ctx: Koa.Context,
  deps: Pick<AccountPageDeps, 'provider' | 'accounts'>,
): Promise<Account | undefined> {
  const session = await currentSession(ctx, deps.provider);
  return session?.accountId ? deps.accounts.findById(session.accountId) : undefined;
}

/** Reads a posted form of the page after checking its anti-forgery token. */
export async function readAccountForm(ctx: Koa.Context, deps: Pick<AccountPageDeps, 'config'>): Promise<URLSearchParams> {
  // Picked before reading, so that a refused form is explained in the page's language.
  ctx.state.locale = localeFor(ctx, deps.config);
  return readCheckedForm(ctx);
}

/** The page after a form: post/redirect/get, with the notice to show in the query. */
export function backToAccount(ctx: Koa.Context, query = ''): void {
  ctx.status = 303;
  ctx.redirect(`${ctx.mountPath ?? ''}/account${query}`);
}

/** POST /account/login: e-mail and password behind the same limits as the sign-in page. */
export function signInToAccount(deps: AccountPageDeps): Koa.Middleware {
  return async function signInToAccountRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const email = (body.get('email') ?? '').trim();
    const password = body.get('password') ?? '';
    // "Rester connecté", unticked by default: without it the session ends with the browser (a shared phone).
    const remember = body.get('remember') === 'yes';
    if (!email || !password) {
      return renderAccountLogin(ctx, deps, {
        locale,
        email,
        remember,
        status: 400,
        error: { form: 'login', message: 'login.error.missing' },
      });
    }
    const outcome = await loggedSignIn(deps, email, password, ctx.ip, { source: 'account_page' });
    if (!outcome.ok && outcome.reason === 'tooMany') {
      return answerTooManyAttempts(ctx, outcome.retryAfterSeconds, (message, status) =>
        renderAccountLogin(ctx, deps, {
          locale,
          email,
          remember,
          status,
          offerReset: true,
          error: { form: 'login', message: message.key, vars: message.vars },
        }),
      );
    }
    if (!outcome.ok) {
      return renderAccountLogin(ctx, deps, {
        locale,
        email,
        remember,
        status: 400,
        error: { form: 'login', message: 'login.error.invalid' },
      });
    }
    await startSession(ctx, deps.provider, deps.config, outcome.account.id, { remember });
    backToAccount(ctx);
  };
}
