// The answers to the offer of a passkey (passkey-offer.ts): the options of the creation, then the new
// passkey or "Non merci". Either way the password sign-in that waited finishes, with `amr: ['pwd']`.
import type { RouterMiddleware } from '@koa/router';
import { securityEvent } from '../src/log/security-log.ts';
import { logMailFailure } from '../src/mail/account-mail.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { registrationOptions, verifyRegistration } from '../src/passkeys/ceremony.ts';
import { passkeyName } from '../src/passkeys/passkey-name.ts';
import type { PendingSignIn } from '../src/passkeys/passkeys.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction } from './interaction.ts';
import { showLogin } from './login.ts';
import { showOffer } from './passkey-offer.ts';

/** The sign-in waiting for this interaction's answer to the offer. */
async function pendingSignIn(deps: InteractionDeps, uid: string): Promise<PendingSignIn | undefined> {
  const found = await deps.passkeys.offers.find(uid);
  return typeof found?.accountId === 'string' ? { accountId: found.accountId, remember: found.remember === true } : undefined;
}

/** POST /interaction/:uid/passkey-offer/options: the options to create the passkey, as JSON. */
export function passkeyOfferOptions(deps: InteractionDeps): RouterMiddleware {
  return async function passkeyOfferOptionsRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    const pending = await pendingSignIn(deps, interaction.uid);
    const account = pending && (await deps.accounts.findById(pending.accountId));
    if (!account) throw new PageError(404, 'generic');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await registrationOptions(deps.passkeys, account);
  };
}

/** POST /interaction/:uid/passkey-offer: the new passkey (`credential`) or "Non merci" (`decline`). */
export function answerPasskeyOffer(deps: InteractionDeps): RouterMiddleware {
  return async function answerPasskeyOfferRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    const body = await readFormBody(ctx);
    const pending = await pendingSignIn(deps, interaction.uid);
    const account = pending && (await deps.accounts.findById(pending.accountId));
    // Waited too long, or answered twice: the sign-in starts again, from the login form.
    if (!pending || !account) return showLogin(ctx, interaction, { error: 'login.passkey.error.expired', status: 400 });
    const credential = body.get('credential');
    if (credential) {
      const name = passkeyName(ctx.get('User-Agent'), interaction.locale);
      const outcome = await verifyRegistration(deps.passkeys, credential, account.id, name);
      if (!outcome.ok) {
        securityEvent('passkey.refused', { source: 'interaction', account_id: account.id, reason: outcome.reason });
        return showOffer(ctx, interaction, 'offer.failed');
      }
      securityEvent('passkey.added', { source: 'interaction', account_id: account.id });
      await deps.mail.sendPasskeyAdded(account, outcome.passkey.name, interaction.locale).catch(logMailFailure);
    } else {
      await deps.passkeys.passkeys.declineOffer(account.id);
    }
    await deps.passkeys.offers.destroy(interaction.uid);
    await finishStep(ctx, interaction, { login: { accountId: account.id, amr: ['pwd'], remember: pending.remember } });
  };
}
