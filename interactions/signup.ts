// Sign-up inside an authorization: the account is created unverified, the verification link is sent,
// and the same interaction goes on (its uid is kept): the user continues to the application by signing
// in with the password just chosen, now or after following the link from another tab (the link's pages
// name the application and lead back to this sign-in).
//
// The answer says nothing about e-mail addresses: for an address that is already registered, the page
// is the same "check your e-mail" page with the same sign-in form, and the owner of the address receives
// a notice instead of a verification link. The new account is not signed in by the sign-up itself: if it
// were, the step after the page (the consent screen for a new address, the sign-in form for a registered
// one) would tell the two apart. What a sign-in then tells is bounded by the sign-in limits.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { limitKeyFor } from '../src/accounts/rate-limits.ts';
import { DuplicateAccountError } from '../src/accounts/store.ts';
import { translator, type MessageKey } from '../src/i18n/index.ts';
import { emailDomain, securityEvent } from '../src/log/security-log.ts';
import { mailAfterAnswer } from '../src/mail/after-answer.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { renderPage } from '../src/pages/render.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';
import { readSignup, validateSignup, type SignupField, type SignupFields } from './signup-form.ts';

interface SignupPage {
  fields?: Partial<SignupFields>;
  errors?: Partial<Record<SignupField, MessageKey>>;
  formError?: MessageKey;
  status?: number;
}

async function showSignup(ctx: Koa.Context, interaction: LoadedInteraction, page: SignupPage = {}): Promise<void> {
  const { client } = interaction;
  if (!client) throw new PageError(400, 'unknownClient');
  const t = translator(interaction.locale);
  const errors = Object.fromEntries(Object.entries(page.errors ?? {}).map(([field, key]) => [field, t(key)]));
  await renderPage(
    ctx,
    'signup',
    {
      uid: interaction.uid,
      client: { name: client.name },
      fields: { email: '', username: '', firstName: '', ...page.fields, password: undefined },
      errors,
      formError: page.formError ? t(page.formError) : null,
    },
    pageOptions(interaction, page.status),
  );
}

export function showSignupRoute(deps: InteractionDeps): RouterMiddleware {
  return async function showSignupPage(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (interaction.details.prompt.name !== 'login') throw new PageError(400, 'generic');
    await showSignup(ctx, interaction);
  };
}

export function submitSignup(deps: InteractionDeps): RouterMiddleware {
  return async function submitSignupRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (interaction.details.prompt.name !== 'login') throw new PageError(400, 'generic');
    const fields = readSignup(await readFormBody(ctx));
    const errors = validateSignup(fields);
    if (Object.keys(errors).length) return showSignup(ctx, interaction, { fields, errors, status: 400 });
    // Every sign-up sends an e-mail: bounded per connection so that the form cannot be used to flood inboxes.
    if (!(await deps.limits.mailPerIp.take(ctx.ip))) {
      securityEvent('mail.throttled', { limit: 'mailPerIp', email_domain: emailDomain(fields.email), source: 'interaction' });
      return showSignup(ctx, interaction, { fields, formError: 'signup.error.tooMany', status: 429 });
    }

    // A username is a public handle: a taken one (or a look-alike of one) may be told, and is told first,
    // so that whether the address is registered never decides which answer comes back.
    const conflict = await deps.accounts.usernameConflict(fields.username);
    if (conflict) return showSignup(ctx, interaction, { fields, errors: { username: USERNAME_CONFLICT[conflict] }, status: 400 });

    let account;
    try {
      // Not waiting for the disk: a registered address's insert fails, and has nothing to wait for.
      account = await deps.accounts.create({ ...fields, emailVerified: false }, { waitForDisk: false });
    } catch (error) {
      if (!(error instanceof DuplicateAccountError)) throw error;
      // The same name registered a moment ago, in another request.
      if (error.field === 'username')
        return showSignup(ctx, interaction, { fields, errors: { username: USERNAME_CONFLICT[error.reason] }, status: 400 });
      // The address is registered: the same page as for a new account, and its owner is told by e-mail.
      // Both ways have hashed the password (create hashes before the insert that finds the address
      // taken) and waited for no disk; each one's e-mail goes after the answer (test/timing).
      mailAfterAnswer(ctx, () => notifyOwner(deps, fields.email, interaction.locale));
      return showSignupDone(ctx, interaction, fields.email);
    }
    securityEvent('account.created', {
      account_id: account.id,
      email_domain: emailDomain(account.email),
      client_id: interaction.client?.clientId,
      source: 'interaction',
    });
    const created = account;
    // The link remembers this authorization: its pages name the application and lead back to this sign-in.
    const origin = { clientId: interaction.clientId, interactionUid: interaction.uid };
    mailAfterAnswer(ctx, () => deps.mail.sendVerification(created, interaction.locale, origin));
    await showSignupDone(ctx, interaction, fields.email);
  };
}

const USERNAME_CONFLICT: Readonly<Record<DuplicateAccountError['reason'], MessageKey>> = {
  taken: 'signup.error.usernameTaken',
  lookalike: 'signup.error.usernameLookalike',
};

/** "Check your e-mail", with the sign-in form that resumes the authorization: the same page in every case. */
function showSignupDone(ctx: Koa.Context, interaction: LoadedInteraction, email: string): Promise<void> {
  return renderPage(
    ctx,
    'signup-done',
    { email, uid: interaction.uid, client: { name: interaction.client?.name ?? '' } },
    pageOptions(interaction),
  );
}

/**
 * The owner of a registered address learns that someone tried to sign up with it, with links to sign in
 * and to choose a new password; at most as often as the reset e-mail may be sent to that address. Runs
 * after the answer: the owner's lookup and the limit's count are work that only a registered address does.
 */
async function notifyOwner(deps: InteractionDeps, email: string, locale: LoadedInteraction['locale']): Promise<void> {
  const owner = await deps.accounts.findByEmail(email);
  if (!owner) return; // deleted meanwhile
  if (!(await deps.limits.mailPerAddress.take(limitKeyFor(owner, email)))) {
    securityEvent('mail.throttled', {
      limit: 'mailPerAddress',
      account_id: owner.id,
      email_domain: emailDomain(email),
      source: 'interaction',
    });
    return;
  }
  await deps.mail.sendSignupAttempt(owner, locale);
}
