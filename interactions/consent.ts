// The consent step: one switch per requested scope, `openid` locked on. Every answer builds a new
// Grant, because a scope once rejected cannot be added back to an existing one.
import type { RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import type { RegisteredClient } from '../src/clients/registry.ts';
import { translator, type MessageKey } from '../src/i18n/index.ts';
import { renderPage } from '../src/pages/render.ts';
import { SCOPE_CLAIMS } from '../src/policy/scopes.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { readFormBody } from './body.ts';
import { decideConsent, offeredScopes, requestedScopes, scopeItems, type ConsentDecision } from './consent-scopes.ts';
import { InteractionError } from './errors.ts';
import { loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';

const APP_TYPE_LABEL: Readonly<Record<RegisteredClient['appType'], MessageKey>> = {
  web: 'consent.appType.web',
  spa: 'consent.appType.spa',
  mobile: 'consent.appType.mobile',
  server: 'consent.appType.server',
};

export async function showConsent(ctx: Koa.Context, context: ServiceContext, interaction: LoadedInteraction): Promise<void> {
  const accountId = signedInAccount(interaction);
  const client = await registeredClient(context, interaction);
  const account = await context.accounts.findById(accountId);
  const t = translator(interaction.locale);
  // With prompt=consent the engine's prompt details may list nothing: the request says what is asked.
  const scopes = offeredScopes(requestedScopes(interaction.details.params.scope), client.scopes);
  await renderPage(
    ctx,
    'consent',
    {
      uid: interaction.uid,
      client: { name: client.name, description: client.description, appTypeLabel: t(APP_TYPE_LABEL[client.appType]) },
      account: account ? { email: account.email } : null,
      scopes: scopeItems(scopes, account, t),
    },
    pageOptions(interaction),
  );
}

export function submitConsent(context: ServiceContext): RouterMiddleware {
  return async function submitConsentRoute(ctx) {
    const interaction = await loadInteraction(ctx, context);
    if (interaction.details.prompt.name !== 'consent') throw new InteractionError(400, 'generic');
    const accountId = signedInAccount(interaction);
    const client = await registeredClient(context, interaction);
    const body = await readFormBody(ctx);

    const decision = decideConsent(requestedScopes(interaction.details.params.scope), client.scopes, body.getAll('scope'));
    const grantId = await saveGrant(context, accountId, client.clientId, decision, interaction);
    await context.consents.record({ accountId, clientId: client.clientId, grantId, scopes: decision.granted });

    await context.provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: false });
    // The engine has written the 303 itself.
    ctx.respond = false;
  };
}

async function saveGrant(
  context: ServiceContext,
  accountId: string,
  clientId: string,
  decision: ConsentDecision,
  interaction: LoadedInteraction,
): Promise<string> {
  const grant = new context.provider.Grant({ accountId, clientId });
  if (decision.granted.length) grant.addOIDCScope(decision.granted.join(' '));
  if (decision.rejected.length) grant.rejectOIDCScope(decision.rejected.join(' '));
  // Claims asked for one by one (the `claims` parameter) follow the scopes: only those of a granted scope.
  const missingClaims = interaction.details.prompt.details.missingOIDCClaims;
  if (Array.isArray(missingClaims) && missingClaims.length) {
    const allowed = new Set<string>(decision.granted.flatMap((scope) => SCOPE_CLAIMS[scope]));
    const claims = missingClaims.filter((claim): claim is string => typeof claim === 'string');
    grant.addOIDCClaims(claims.filter((claim) => allowed.has(claim)));
    grant.rejectOIDCClaims(claims.filter((claim) => !allowed.has(claim)));
  }
  return grant.save();
}

function signedInAccount(interaction: LoadedInteraction): string {
  const accountId = interaction.details.session?.accountId;
  // Consent always follows a login; without one the interaction is not the one this page was for.
  if (!accountId) throw new InteractionError(400, 'sessionExpired');
  return accountId;
}

async function registeredClient(_context: ServiceContext, interaction: LoadedInteraction): Promise<RegisteredClient> {
  const { client } = interaction;
  if (!client) throw new InteractionError(400, 'unknownClient');
  return client;
}
