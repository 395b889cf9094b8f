// The refuse / cancel button: the engine sends the user back to the application with access_denied.
import type { RouterMiddleware } from '@koa/router';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction } from './interaction.ts';

export function abortInteraction(deps: InteractionDeps): RouterMiddleware {
  return async function abortInteractionRoute(ctx) {
    // Loaded only to check the uid and that the interaction still exists.
    await loadInteraction(ctx, deps);
    await finishStep(ctx, deps, { error: 'access_denied', error_description: 'End-User aborted interaction' });
  };
}
