// The portal is first-party: its owners are not asked to "allow the developer portal" to read their
// e-mail. Of the two ways to skip that screen, pre-creating the grant is impossible (the account is
// unknown until the login step ends) and the grant-loading hook belongs to the provider layer. So this
// middleware, in front of the interaction pages, answers the consent step itself when the engine's
// interaction (server-side state bound to the browser's cookie, not anything the request says) is for
// the portal's client: it grants the portal's own scopes and records the consent like the consent page
// does, so that loadExistingGrant finds it next time and the engine does not even ask.
import type Koa from 'koa';
import type { PortalDeps } from './deps.ts';

const INTERACTION_PAGE = /^\/interaction\/([^/]+)$/;

export function firstPartyConsent(deps: PortalDeps): Koa.Middleware {
  const { provider, consents } = deps.context;
  return async function skipPortalConsent(ctx, next) {
    const uid = ctx.method === 'GET' ? INTERACTION_PAGE.exec(ctx.path)?.[1] : undefined;
    if (!uid) return next();
    let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      // Expired or unknown interaction: the interaction page explains it in its own words.
      return next();
    }
    const accountId = details.session?.accountId;
    if (details.uid !== uid || details.prompt.name !== 'consent' || details.params.client_id !== deps.client.clientId || !accountId) {
      return next();
    }
    const grant = new provider.Grant({ accountId, clientId: deps.client.clientId });
    grant.addOIDCScope(deps.client.scopes.join(' '));
    const grantId = await grant.save();
    await consents.record({ accountId, clientId: deps.client.clientId, grantId, scopes: deps.client.scopes });
    await provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: false });
    // The engine has written the 303 itself.
    ctx.respond = false;
  };
}
