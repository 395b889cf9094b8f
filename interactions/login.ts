// The login step: e-mail and password. A failure never says whether the e-mail exists.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { t, type MessageKey } from '../src/i18n/index.ts';
import { renderPage } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { readFormBody } from './body.ts';
import { InteractionError } from './errors.ts';
import { loadInteraction, type LoadedInteraction } from './interaction.ts';

interface LoginForm {
  email?: string;
  error?: MessageKey;
  status?: number;
}

export async function showLogin(ctx: Koa.Context, context: ServiceContext, interaction: LoadedInteraction, form: LoginForm = {}): Promise<void> {
  const client = await context.clients.get(interaction.clientId);
  if (!client) throw new InteractionError(400, 'unknownClient');
  const { locale } = interaction;
  await renderPage(
    ctx,
    'login',
    {
      uid: interaction.uid,
      client: { name: client.name },
      email: form.email ?? '',
      error: form.error ? t(locale, form.error) : null,
    },
    { status: form.status ?? 200, locale },
  );
}

export function submitLogin(context: ServiceContext): RouterMiddleware {
  return async function submitLoginRoute(ctx) {
    const interaction = await loadInteraction(ctx, context);
    if (interaction.details.prompt.name !== 'login') throw new InteractionError(400, 'generic');
    const body = await readFormBody(ctx);
    const email = (body.get('email') ?? '').trim();
    const password = body.get('password') ?? '';
    if (!email || !password) {
      return showLogin(ctx, context, interaction, { email, error: 'login.error.missing', status: 400 });
    }
    const account = await context.accounts.authenticate(email, password);
    if (!account) {
      return showLogin(ctx, context, interaction, { email, error: 'login.error.invalid', status: 400 });
    }
    await context.provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    // The engine has written the 303 itself.
    ctx.respond = false;
  };
}
