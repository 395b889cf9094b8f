// Signing in with a passkey on the login step: the options of the ceremony (asked by the page's script,
// for the button and for the identifier field's autofill), then the browser's answer, posted as a form so
// that the engine's redirect is followed as after a password. A passkey sign-in is a complete one: it
// counts against the IP's sign-in limit, it is logged as a sign-in (and counted in the metrics with them),
// and it finishes through the same step as a password, with `amr` saying how (hwk or swk, RFC 8176).
// A refused answer shows the login page again with a message, and a line in the security log with why.
import type { RouterMiddleware } from '@koa/router';
import { AccountDisabledError } from '../src/accounts/login-guard.ts';
import type { MessageKey } from '../src/i18n/index.ts';
import { securityEvent } from '../src/log/security-log.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { answerTooManyAttempts } from '../src/pages/too-many-attempts.ts';
import { signInOptions, verifySignIn, type RefusalReason } from '../src/passkeys/ceremony.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction } from './interaction.ts';
import { showLogin } from './login.ts';

/** The message of the login page for each reason a passkey is refused. */
export function refusalMessage(reason: RefusalReason): MessageKey {
  switch (reason) {
    case 'challenge_unknown':
    case 'challenge_replayed':
    case 'challenge_expired':
      return 'login.passkey.error.expired';
    case 'unknown_credential':
      return 'login.passkey.error.unknown';
    default:
      return 'login.passkey.error.refused';
  }
}

/** POST /interaction/:uid/passkey/options: the options of a sign-in ceremony, as JSON. */
export function passkeySignInOptions(deps: InteractionDeps): RouterMiddleware {
  return async function passkeySignInOptionsRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (!deps.passkeys.enabled || interaction.details.prompt.name !== 'login') throw new PageError(404, 'generic');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await signInOptions(deps.passkeys, interaction.uid);
  };
}

/** POST /interaction/:uid/passkey: the browser's answer; signed in, or the login page with why not. */
export function submitPasskeySignIn(deps: InteractionDeps): RouterMiddleware {
  return async function submitPasskeySignInRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (!deps.passkeys.enabled || interaction.details.prompt.name !== 'login') throw new PageError(400, 'generic');
    const body = await readFormBody(ctx);
    const remember = body.get('remember') === 'yes';
    const { loginPerIp } = deps.limits;
    // Counted before the check, as a password is: the limit bounds attempts, right or wrong.
    const wait = await loginPerIp.consume(ctx.ip);
    if (wait > 0) {
      securityEvent('sign_in.throttled', { source: 'interaction', method: 'passkey', limit: 'login', retry_after: wait });
      return answerTooManyAttempts(ctx, wait, (message, status) =>
        showLogin(ctx, interaction, { remember, error: message.key, errorVars: message.vars, status }),
      );
    }
    const outcome = await verifySignIn(deps.passkeys, body.get('credential') ?? '', interaction.uid);
    if (!outcome.ok) {
      securityEvent('sign_in.failure', { source: 'interaction', method: 'passkey', reason: outcome.reason, account_id: outcome.accountId });
      return showLogin(ctx, interaction, {
        remember,
        error: refusalMessage(outcome.reason),
        status: 400,
        // The browser is told to forget a passkey the service no longer knows (WebAuthn Signal API).
        unknownPasskey: outcome.reason === 'unknown_credential' ? outcome.credentialId : undefined,
      });
    }
    const account = await deps.accounts.details(outcome.passkey.accountId);
    if (!account) throw new PageError(400, 'generic');
    if (account.disabledAt) {
      securityEvent('sign_in.failure', { source: 'interaction', method: 'passkey', account_id: account.id, reason: 'account_disabled' });
      throw new AccountDisabledError(account.id);
    }
    await loginPerIp.refund(ctx.ip);
    securityEvent('sign_in.success', { source: 'interaction', method: 'passkey', account_id: account.id });
    await finishStep(ctx, interaction, { login: { accountId: account.id, amr: [outcome.amr], remember } });
  };
}
