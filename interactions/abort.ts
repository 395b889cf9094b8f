// The refuse / cancel button: the engine sends the user back to the application with access_denied.
import type { RouterMiddleware } from '@koa/router';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction } from './interaction.ts';

export function abortInteraction(deps: InteractionDeps): RouterMiddleware {
  return async function abortInteractionRoute(ctx) {
    // Loaded to check the uid and that the interaction still exists, and to carry the answer.
    const interaction = await loadInteraction(ctx, deps);
    await finishStep(ctx, interaction, { error: 'access_denied', error_description: 'End-User aborted interaction' });
  };
}
