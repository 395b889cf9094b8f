// The login step: e-mail and password, behind the brute-force limits. A failure never says whether the
// e-mail exists, and the limit answers the same for a registered address and an unknown one. "Rester
// connecté", unticked by default, is the engine's `login.remember`: without it the session cookie has no
// expiry and ends with the browser (a shared phone); with it, it lives the usual `ttl.session`.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { loggedSignIn } from '../src/accounts/logged-sign-in.ts';
import { t, type MessageKey, type MessageVars } from '../src/i18n/index.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { renderPage } from '../src/pages/render.ts';
import { PASSKEY_PAGE_POLICY } from '../src/pages/security-headers.ts';
import { answerTooManyAttempts } from '../src/pages/too-many-attempts.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';
import { offerPasskey } from './passkey-offer.ts';
import { passkeysOnPage } from './passkey-pages.ts';

interface LoginForm {
  email?: string;
  error?: MessageKey;
  errorVars?: MessageVars;
  /** Over the sign-in limits: the message links to password reset, which lifts the account's limit. */
  offerReset?: boolean;
  /** "Rester connecté" as ticked, when the form is shown again. */
  remember?: boolean;
  status?: number;
  /** A passkey the service no longer knows, which the page tells the browser to forget. */
  unknownPasskey?: string;
}

export async function showLogin(ctx: Koa.Context, interaction: LoadedInteraction, form: LoginForm = {}): Promise<void> {
  const { client, locale } = interaction;
  if (!client) throw new PageError(400, 'unknownClient');
  const passkeys = passkeysOnPage(ctx);
  await renderPage(
    ctx,
    'login',
    {
      uid: interaction.uid,
      client: { name: client.name },
      email: form.email ?? '',
      error: form.error ? t(locale, form.error, form.errorVars) : null,
      offerReset: form.offerReset === true,
      remember: form.remember === true,
      passkeys: passkeys && { rpId: passkeys.rp.id, unknown: form.unknownPasskey ? [form.unknownPasskey] : [] },
      phoneChannel: interaction.phoneChannel ?? null,
    },
    passkeys
      ? {
          ...pageOptions(interaction, form.status),
          scripts: ['show-password.js', 'passkeys.js'],
          contentSecurityPolicy: PASSKEY_PAGE_POLICY,
        }
      : pageOptions(interaction, form.status),
  );
}

export function submitLogin(deps: InteractionDeps): RouterMiddleware {
  return async function submitLoginRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (interaction.details.prompt.name !== 'login') throw new PageError(400, 'generic');
    const body = await readFormBody(ctx);
    const email = (body.get('email') ?? '').trim();
    const password = body.get('password') ?? '';
    const remember = body.get('remember') === 'yes';
    if (!email || !password) {
      return showLogin(ctx, interaction, { email, remember, error: 'login.error.missing', status: 400 });
    }
    const outcome = await loggedSignIn(deps, email, password, ctx.ip, { source: 'interaction' });
    if (!outcome.ok && outcome.reason === 'tooMany') {
      return answerTooManyAttempts(ctx, outcome.retryAfterSeconds, (message, status) =>
        showLogin(ctx, interaction, { email, remember, error: message.key, errorVars: message.vars, offerReset: true, status }),
      );
    }
    if (!outcome.ok) return showLogin(ctx, interaction, { email, remember, error: 'login.error.invalid', status: 400 });
    const deviceCanCreate = body.get('passkey_capable') === 'yes';
    if (await offerPasskey(ctx, deps, interaction, outcome.account, { remember, deviceCanCreate })) return;
    await finishStep(ctx, interaction, { login: { accountId: outcome.account.id, amr: ['pwd'], remember } });
  };
}
