// Sign-up inside an authorization: the account is created unverified, the verification link is sent,
// and the same interaction goes on (its uid is kept): the user is signed in and continues to the
// application, now or after following the link from another tab.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { DuplicateAccountError } from '../src/accounts/store.ts';
import { translator, type MessageKey } from '../src/i18n/index.ts';
import { logMailFailure } from '../src/mail/account-mail.ts';
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
      return showSignup(ctx, interaction, { fields, formError: 'signup.error.tooMany', status: 429 });
    }

    let account;
    try {
      account = await deps.accounts.create({ ...fields, emailVerified: false });
    } catch (error) {
      if (!(error instanceof DuplicateAccountError)) throw error;
      const field = error.field === 'email' ? 'email' : 'username';
      const key = error.field === 'email' ? 'signup.error.emailTaken' : 'signup.error.usernameTaken';
      return showSignup(ctx, interaction, { fields, errors: { [field]: key }, status: 400 });
    }
    await deps.mail.sendVerification(account, interaction.locale).catch(logMailFailure);

    // The login result is stored on the interaction without redirecting: the page below tells the user
    // to check their e-mail, and its button resumes the authorization where it stopped.
    const resume = await deps.provider.interactionResult(ctx.req, ctx.res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    await renderPage(
      ctx,
      'signup-done',
      { email: account.email, client: { name: interaction.client?.name ?? '' }, resume },
      pageOptions(interaction),
    );
  };
}
