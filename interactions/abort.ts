// The refuse / cancel button: the engine sends the user back to the application with access_denied.
import type { RouterMiddleware } from '@koa/router';
import type { ServiceContext } from '../src/service-context.ts';
import { loadInteraction } from './interaction.ts';

export function abortInteraction(context: ServiceContext): RouterMiddleware {
  return async function abortInteractionRoute(ctx) {
    // Loaded only to check the uid and that the interaction still exists.
    await loadInteraction(ctx, context);
    await context.provider.interactionFinished(
      ctx.req,
      ctx.res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
    // The engine has written the 303 itself.
    ctx.respond = false;
  };
}
