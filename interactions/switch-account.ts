// "Ce n'est pas vous ? Changer de compte" on the consent screen: this browser is signed out of the
// service, then sent to the same authorization request again: without a session, the engine asks who
// signs in, and whoever does is the one asked to consent. A form post (its URL names the interaction, which must be this
// browser's, as for every interaction form): a link elsewhere cannot sign anyone out.
//
// Signing out first, rather than letting the engine notice the change of account at the end of the
// login, spares the user the engine's own "logging out" step, a page that needs JavaScript.
import type { RouterMiddleware } from '@koa/router';
import { endCurrentSession } from '../src/provider/engine-session.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { ROUTES } from '../src/provider/paths.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { loadInteraction } from './interaction.ts';

// A pushed or signed request was used up by the first pass; its parameters are in `params` already.
const NOT_REPEATED = new Set(['request', 'request_uri']);

export function switchAccount(deps: InteractionDeps): RouterMiddleware {
  return async function switchAccountRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (interaction.details.prompt.name !== 'consent') throw new PageError(400, 'generic');
    const { params } = interaction.details;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string' && !NOT_REPEATED.has(name)) query.set(name, value);
    }
    await endCurrentSession(ctx, deps.provider, deps.config);
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${deps.config.issuer}${ROUTES.authorization}?${query.toString()}`);
  };
}
