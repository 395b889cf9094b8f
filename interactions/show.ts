// GET /interaction/:uid: the page of the step the engine is waiting for.
import type { RouterMiddleware } from '@koa/router';
import { PageError } from '../src/pages/page-errors.ts';
import { consentStep } from './consent.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { loadInteraction } from './interaction.ts';
import { showLogin } from './login.ts';

export function showInteraction(deps: InteractionDeps): RouterMiddleware {
  return async function showInteractionRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    switch (interaction.details.prompt.name) {
      case 'login':
        // Asked to start on the sign-up form (`screen_hint=signup`); its "Déjà un compte ?" link comes
        // back with `?login`.
        if (interaction.details.params.screen_hint === 'signup' && ctx.query.login === undefined) {
          ctx.set('Cache-Control', 'no-store');
          return ctx.redirect(`${ctx.mountPath ?? ''}/interaction/${interaction.uid}/signup`);
        }
        return showLogin(ctx, interaction);
      case 'consent':
        return consentStep(ctx, deps, interaction);
      default:
        throw new PageError(400, 'generic');
    }
  };
}
