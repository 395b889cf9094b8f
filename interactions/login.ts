// The login step: e-mail and password, behind the brute-force limits. A failure never says whether the
// e-mail exists, and the limit answers the same for a registered address and an unknown one.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { guardedLogin } from '../src/accounts/login-guard.ts';
import { t, type MessageKey, type MessageVars } from '../src/i18n/index.ts';
import { renderPage } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { readFormBody } from './body.ts';
import { endUserServices } from './end-user.ts';
import { InteractionError } from './errors.ts';
import { loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';

interface LoginForm {
  email?: string;
  error?: MessageKey;
  errorVars?: MessageVars;
  status?: number;
}

export async function showLogin(ctx: Koa.Context, _context: ServiceContext, interaction: LoadedInteraction, form: LoginForm = {}): Promise<void> {
  const { client, locale } = interaction;
  if (!client) throw new InteractionError(400, 'unknownClient');
  await renderPage(
    ctx,
    'login',
    {
      uid: interaction.uid,
      client: { name: client.name },
      email: form.email ?? '',
      error: form.error ? t(locale, form.error, form.errorVars) : null,
    },
    pageOptions(interaction, form.status),
  );
}

export function submitLogin(context: ServiceContext): RouterMiddleware {
  const { limits } = endUserServices(context);
  return async function submitLoginRoute(ctx) {
    const interaction = await loadInteraction(ctx, context);
    if (interaction.details.prompt.name !== 'login') throw new InteractionError(400, 'generic');
    const body = await readFormBody(ctx);
    const email = (body.get('email') ?? '').trim();
    const password = body.get('password') ?? '';
    if (!email || !password) {
      return showLogin(ctx, context, interaction, { email, error: 'login.error.missing', status: 400 });
    }
    const outcome = await guardedLogin({ accounts: context.accounts, limits }, email, password, ctx.ip);
    if (!outcome.ok) {
      if (outcome.reason === 'tooMany') {
        ctx.set('Retry-After', String(outcome.retryAfterSeconds));
        const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
        return showLogin(ctx, context, interaction, { email, error: 'login.error.tooMany', errorVars: { minutes }, status: 429 });
      }
      return showLogin(ctx, context, interaction, { email, error: 'login.error.invalid', status: 400 });
    }
    await context.provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: outcome.account.id } }, { mergeWithLastSubmission: false });
    // The engine has written the 303 itself.
    ctx.respond = false;
  };
}
