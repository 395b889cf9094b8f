// /account: the end user's own page. Signed in (through the engine session), it lists the applications
// the user shared data with and lets them revoke one, change their password, and sign out of every
// session. Signed out, it shows its own sign-in form, which opens an engine session directly: the
// account page is the service's own, so it needs no OAuth request, client or consent of its own.
// Every form carries the anti-forgery token (src/pages/csrf.ts).
import Router from '@koa/router';
import type Koa from 'koa';
import { guardedLogin } from '../accounts/login-guard.ts';
import { checkPassword } from '../accounts/password-policy.ts';
import type { Account } from '../accounts/store.ts';
import { revokeAccountGrants, revokeGrant } from '../grants/revoke.ts';
import { localeFor, pageHeaders } from '../pages/render.ts';
import type { ServiceContext } from '../service-context.ts';
import { readCheckedForm } from '../../interactions/body.ts';
import { endUserServices } from '../../interactions/end-user.ts';
import { InteractionError, interactionErrors } from '../../interactions/errors.ts';
import { PASSWORD_MESSAGES } from '../../interactions/signup-form.ts';
import { clearSessionCookie, currentSession, startSession } from './engine-session.ts';
import { rememberRevoked, renderAccount, renderAccountLogin } from './page.ts';

export function accountRoutes(context: ServiceContext): Koa.Middleware {
  const { config, provider } = context;
  const services = endUserServices(context);
  const router = new Router();
  const page = [pageHeaders(), interactionErrors(config)];

  const signedIn = async (ctx: Koa.Context): Promise<Account | undefined> => {
    const session = await currentSession(ctx, provider);
    return session?.accountId ? context.accounts.findById(session.accountId) : undefined;
  };
  /** Reads a posted form after checking its anti-forgery token. */
  const form = async (ctx: Koa.Context): Promise<URLSearchParams> => {
    ctx.state.locale = localeFor(ctx, config);
    return readCheckedForm(ctx);
  };
  const backToAccount = (ctx: Koa.Context, query = '') => {
    ctx.status = 303;
    ctx.redirect(`${ctx.mountPath ?? ''}/account${query}`);
  };

  router.get('/account', ...page, async (ctx) => {
    const locale = localeFor(ctx, config);
    const account = await signedIn(ctx);
    if (!account) return renderAccountLogin(ctx, context, { locale });
    await renderAccount(ctx, context, account, { locale });
  });

  router.post('/account/login', ...page, async (ctx) => {
    const body = await form(ctx);
    const locale = localeFor(ctx, config);
    const email = (body.get('email') ?? '').trim();
    const password = body.get('password') ?? '';
    if (!email || !password) return renderAccountLogin(ctx, context, { locale, email, status: 400, error: { form: 'login', message: 'login.error.missing' } });
    const outcome = await guardedLogin({ accounts: context.accounts, limits: services.limits }, email, password, ctx.ip);
    if (!outcome.ok) {
      const error = outcome.reason === 'tooMany'
        ? { form: 'login' as const, message: 'login.error.tooMany' as const, vars: { minutes: Math.ceil(outcome.retryAfterSeconds / 60) } }
        : { form: 'login' as const, message: 'login.error.invalid' as const };
      return renderAccountLogin(ctx, context, { locale, email, status: outcome.reason === 'tooMany' ? 429 : 400, error });
    }
    await startSession(ctx, provider, config, outcome.account.id);
    backToAccount(ctx);
  });

  router.post('/account/revoke', ...page, async (ctx) => {
    const body = await form(ctx);
    const account = await signedIn(ctx);
    if (!account) return backToAccount(ctx);
    const clientId = body.get('client_id') ?? '';
    const consents = (await context.consents.listForAccount(account.id)).filter((c) => c.clientId === clientId);
    // The grant and every code and token issued under it, wherever each is stored; then the memory of the consent.
    for (const consent of consents) await revokeGrant(context.adapters, consent.grantId);
    await context.consents.forget({ accountId: account.id, clientId });
    // Only an application this user had shared data with is named on the next page.
    if (consents.length > 0) rememberRevoked(ctx, context, account.id, clientId);
    backToAccount(ctx, '?notice=revoked');
  });

  router.post('/account/password', ...page, async (ctx) => {
    const body = await form(ctx);
    const locale = localeFor(ctx, config);
    const account = await signedIn(ctx);
    if (!account) return backToAccount(ctx);
    const current = body.get('current_password') ?? '';
    const next = body.get('new_password') ?? '';
    // The current password goes through the same limits as a sign-in: a stolen session must not become a password oracle.
    const check = await guardedLogin({ accounts: context.accounts, limits: services.limits }, account.email, current, ctx.ip);
    if (!check.ok || check.account.id !== account.id) {
      const error = !check.ok && check.reason === 'tooMany'
        ? { form: 'password' as const, message: 'login.error.tooMany' as const, vars: { minutes: Math.ceil(check.retryAfterSeconds / 60) } }
        : { form: 'password' as const, message: 'account.password.wrong' as const };
      return renderAccount(ctx, context, account, { locale, status: 400, error });
    }
    const problem = checkPassword(next, account);
    if (problem) return renderAccount(ctx, context, account, { locale, status: 400, error: { form: 'password', message: PASSWORD_MESSAGES[problem] } });
    await context.accounts.setPassword(account.id, next);
    // Every other session ends; this browser gets a fresh one.
    await services.sessions.endAll(account.id);
    // Applications lose their grants too: their refresh tokens would otherwise outlive the old password.
    await revokeAccountGrants(context.adapters, context.consents, account.id);
    await startSession(ctx, provider, config, account.id);
    backToAccount(ctx, '?notice=password');
  });

  router.post('/account/sessions/end', ...page, async (ctx) => {
    await form(ctx);
    const account = await signedIn(ctx);
    if (account) await services.sessions.endAll(account.id);
    // Also ends a session this browser had before tracking began.
    const session = await currentSession(ctx, provider);
    if (session) await session.destroy();
    clearSessionCookie(ctx, provider, config);
    backToAccount(ctx, '?notice=signed-out');
  });

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  return router.routes() as unknown as Koa.Middleware;
}
