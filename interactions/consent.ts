// The consent step: the scopes the application requires (`openid`, `email`) shown as shared, one switch
// per optional scope, and what the user can trust about the application (consent-trust.ts). "Refuser"
// refuses the whole request. Every answer builds a new Grant, because a scope once rejected cannot be
// added back to an existing one. An application of the service itself (first-party, such as the
// developer portal) is not asked about: the step grants its requested scopes at once.
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { RegisteredClient } from '../src/clients/registry.ts';
import { translator, type MessageKey } from '../src/i18n/index.ts';
import { securityEvent } from '../src/log/security-log.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { renderPage } from '../src/pages/render.ts';
import { SCOPE_CLAIMS } from '../src/policy/scopes.ts';
import { saveGrant } from '../src/provider/engine.ts';
import { decideConsent, offeredScopes, requestedScopes, scopeItems, type ConsentDecision } from './consent-scopes.ts';
import { consentPolicy, trustOf } from './consent-trust.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';

const APP_TYPE_LABEL: Readonly<Record<RegisteredClient['appType'], MessageKey>> = {
  web: 'consent.appType.web',
  spa: 'consent.appType.spa',
  mobile: 'consent.appType.mobile',
  server: 'consent.appType.server',
};

/** GET of the consent step: the screen, or for a first-party application the answer without it. */
export async function consentStep(ctx: RouterContext, deps: InteractionDeps, interaction: LoadedInteraction): Promise<void> {
  const accountId = signedInAccount(interaction);
  const client = registeredClient(interaction);
  if (!client.firstParty) return showConsent(ctx, deps, interaction, accountId, client);
  // Everything offered, as if every switch were on.
  const requested = requestedScopes(interaction.details.params.scope);
  const decision = decideConsent(requested, client.scopes, offeredScopes(requested, client.scopes));
  await recordConsent(ctx, deps, interaction, { accountId, clientId: client.clientId }, decision);
}

async function showConsent(
  ctx: RouterContext,
  deps: InteractionDeps,
  interaction: LoadedInteraction,
  accountId: string,
  client: RegisteredClient,
): Promise<void> {
  const account = await deps.accounts.findById(accountId);
  const t = translator(interaction.locale);
  // With prompt=consent the engine's prompt details may list nothing: the request says what is asked.
  const scopes = offeredScopes(requestedScopes(interaction.details.params.scope), client.scopes);
  const trust = await trustOf(client, deps.accounts);
  await renderPage(
    ctx,
    'consent',
    {
      uid: interaction.uid,
      client: { name: client.name, description: client.description, appTypeLabel: t(APP_TYPE_LABEL[client.appType]) },
      trust,
      account: account ? { email: account.email } : null,
      scopes: scopeItems(scopes, account, t),
    },
    // The verified logo is the one image from elsewhere any page shows: the policy names its URL alone.
    { ...pageOptions(interaction), scripts: [], contentSecurityPolicy: consentPolicy(trust) },
  );
}

export function submitConsent(deps: InteractionDeps): RouterMiddleware {
  return async function submitConsentRoute(ctx) {
    const interaction = await loadInteraction(ctx, deps);
    if (interaction.details.prompt.name !== 'consent') throw new PageError(400, 'generic');
    const accountId = signedInAccount(interaction);
    const client = registeredClient(interaction);
    const body = await readFormBody(ctx);
    const decision = decideConsent(requestedScopes(interaction.details.params.scope), client.scopes, body.getAll('scope'));
    await recordConsent(ctx, deps, interaction, { accountId, clientId: client.clientId }, decision);
  };
}

/**
 * Saves the decision as a new Grant, remembers it (so that loadExistingGrant finds it in another
 * browser session and the engine does not ask again), and ends the step.
 */
async function recordConsent(
  ctx: RouterContext,
  deps: InteractionDeps,
  interaction: LoadedInteraction,
  { accountId, clientId }: { accountId: string; clientId: string },
  decision: ConsentDecision,
): Promise<void> {
  const grantId = await saveGrant(deps.provider, {
    accountId,
    clientId,
    scopes: decision.granted,
    rejectedScopes: decision.rejected,
    ...claimsOf(interaction, decision),
  });
  await deps.consents.record({ accountId, clientId, grantId, scopes: decision.granted });
  securityEvent('consent.given', {
    account_id: accountId,
    client_id: clientId,
    grant_id: grantId,
    scopes: decision.granted,
    source: 'interaction',
  });
  await finishStep(ctx, interaction, { consent: { grantId } }, { keepLogin: true });
}

/** Claims asked for one by one (the `claims` parameter) follow the scopes: only those of a granted scope. */
function claimsOf(interaction: LoadedInteraction, decision: ConsentDecision): { claims?: string[]; rejectedClaims?: string[] } {
  const missing = interaction.details.prompt.details.missingOIDCClaims;
  if (!Array.isArray(missing) || !missing.length) return {};
  const allowed = new Set<string>(decision.granted.flatMap((scope) => SCOPE_CLAIMS[scope]));
  const claims = missing.filter((claim): claim is string => typeof claim === 'string');
  return { claims: claims.filter((claim) => allowed.has(claim)), rejectedClaims: claims.filter((claim) => !allowed.has(claim)) };
}

function signedInAccount(interaction: LoadedInteraction): string {
  const accountId = interaction.details.session?.accountId;
  // Consent always follows a login; without one the interaction is not the one this page was for.
  if (!accountId) throw new PageError(400, 'sessionExpired');
  return accountId;
}

function registeredClient(interaction: LoadedInteraction): RegisteredClient {
  if (!interaction.client) throw new PageError(400, 'unknownClient');
  return interaction.client;
}
