// What the FedCM face adds to the engine's own answers:
//  - at every sign-in the engine completes (any method: the login result of an interaction), the FedCM
//    cookie is set to the engine session's uid, known only once the engine has taken the result;
//  - the answer to a FedCM pop-up's authorization request (recognized by its recorded `state`) does not go
//    to the application's redirect URI: the pop-up ends on a page of ours that hands the code to the browser
//    (`IdentityProvider.resolve`) or, refused, closes (`IdentityProvider.close`), and the application's
//    `navigator.credentials.get` rejects with no code;
//  - a sign-out through the engine's end-session endpoint clears the FedCM cookie and says "logged out".
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SignInConfig } from '../config/schema.ts';
import { securityEvent } from '../log/security-log.ts';
import { fedcmSignedIn, fedcmSignedOut } from '../pages/fedcm-login-status.ts';
import { renderPage } from '../pages/render.ts';
import { localeFor } from '../pages/language.ts';
import { STATE_PREFIX, type PopUps } from './pop-ups.ts';

interface SessionView {
  uid?: string;
  accountId?: string;
  exp?: number;
  transient?: boolean;
}

function setCookieFor(ctx: KoaContextWithOIDC, config: Pick<SignInConfig, 'issuer' | 'fedcm'>): void {
  const session = ctx.oidc?.session as SessionView | undefined;
  if (!session?.uid || !session.accountId) return;
  const expires = !session.transient && session.exp ? new Date(session.exp * 1000) : undefined;
  fedcmSignedIn(ctx, config, session.uid, expires);
}

export function fedcmEngineHooks(provider: Provider, config: SignInConfig, store: PopUps): void {
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => fedcmSignedOut(ctx, config));
  provider.use(async function fedcmAnswers(ctx, next) {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    if (!oidc || (ctx.status !== 302 && ctx.status !== 303)) return;
    const interaction = oidc.entities?.Interaction as { result?: { login?: unknown } } | undefined;
    if (interaction?.result?.login) setCookieFor(ctx as KoaContextWithOIDC, config);
    const location = URL.parse(ctx.response.get('Location'));
    const state = location?.searchParams.get('state');
    if (!location || !state?.startsWith(STATE_PREFIX)) return;
    const popUp = await store.take(state.slice(STATE_PREFIX.length));
    if (!popUp || `${location.origin}${location.pathname}` !== popUp.redirectUri) return;
    // The pop-up's user is signed in here now, whichever way (an existing session skips the login page).
    setCookieFor(ctx as KoaContextWithOIDC, config);
    const code = popUp.kind === 'consent' ? location.searchParams.get('code') : null;
    const fields = { client_id: popUp.clientId, account_id: oidc.session?.accountId, source: 'fedcm' as const, endpoint: 'continue_on' };
    if (popUp.kind === 'consent') {
      if (code) securityEvent('fedcm.assertion', fields);
      else securityEvent('fedcm.refused', { ...fields, reason: location.searchParams.get('error') ?? 'consent' });
    }
    ctx.remove('Location');
    ctx.set('Cache-Control', 'no-store');
    await renderPage(
      ctx,
      'fedcm-done',
      { code, signedIn: popUp.kind === 'login' },
      { locale: localeFor(ctx, config), scripts: ['fedcm-done.js'] },
    );
  });
}
