// The offer after a password sign-in: "Se connecter plus vite la prochaine fois ?". Made once per account
// (declined, it is remembered and not made again), only on a device that says it can create a passkey
// (the login page's script tells), and only to an account without one. While it is shown, the password
// sign-in waits on the server (model `PasskeyOffer`, keyed by the interaction, which only this browser's
// cookie opens); accepted, declined or failed, the sign-in then finishes as it would have without it
// (passkey-offer-routes.ts).
import type { RouterContext } from '@koa/router';
import type { Account } from '../src/accounts/store.ts';
import { translator } from '../src/i18n/index.ts';
import { renderPage } from '../src/pages/render.ts';
import { PASSKEY_PAGE_POLICY } from '../src/pages/security-headers.ts';
import { OFFER_SECONDS, type PendingSignIn } from '../src/passkeys/passkeys.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { pageOptions, type LoadedInteraction } from './interaction.ts';

/** After a right password: true when the offer was shown instead of finishing the sign-in now. */
export async function offerPasskey(
  ctx: RouterContext,
  deps: InteractionDeps,
  interaction: LoadedInteraction,
  account: Account,
  signIn: { remember: boolean; deviceCanCreate: boolean },
): Promise<boolean> {
  const { passkeys } = deps;
  if (!passkeys.enabled || !signIn.deviceCanCreate) return false;
  if ((await passkeys.passkeys.offerDeclined(account.id)) || (await passkeys.passkeys.list(account.id)).length > 0) return false;
  const pending: PendingSignIn = { accountId: account.id, remember: signIn.remember };
  await passkeys.offers.upsert(interaction.uid, { ...pending }, OFFER_SECONDS);
  await showOffer(ctx, interaction);
  return true;
}

export async function showOffer(ctx: RouterContext, interaction: LoadedInteraction, error?: 'offer.failed'): Promise<void> {
  const t = translator(interaction.locale);
  await renderPage(
    ctx,
    'passkey-offer',
    { uid: interaction.uid, error: error ? t(error) : null },
    { ...pageOptions(interaction, error ? 400 : 200), scripts: ['passkeys.js'], contentSecurityPolicy: PASSKEY_PAGE_POLICY },
  );
}
