// GET /interaction/:uid: the page of the step the engine is waiting for.
import type { RouterMiddleware } from '@koa/router';
import type { ServiceContext } from '../src/service-context.ts';
import { showConsent } from './consent.ts';
import { InteractionError } from './errors.ts';
import { loadInteraction } from './interaction.ts';
import { showLogin } from './login.ts';

export function showInteraction(context: ServiceContext): RouterMiddleware {
  return async function showInteractionRoute(ctx) {
    const interaction = await loadInteraction(ctx, context);
    switch (interaction.details.prompt.name) {
      case 'login':
        return showLogin(ctx, context, interaction);
      case 'consent':
        return showConsent(ctx, context, interaction);
      default:
        throw new InteractionError(400, 'generic');
    }
  };
}
