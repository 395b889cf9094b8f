// Loads the engine's interaction for the uid in the URL, picks the page language and the layout.
import type { RouterContext } from '@koa/router';
import type { InteractionResults } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { RegisteredClient } from '../src/clients/registry.ts';
import type { Locale } from '../src/i18n/index.ts';
import { chosenLanguage, localeFor } from '../src/pages/language.ts';
import { configuredChannel } from '../src/phone/gateways/create-gateway.ts';
import { finishInteraction, type InteractionDetails } from '../src/provider/engine.ts';
import type { InteractionDeps } from './interaction-deps.ts';

export interface LoadedInteraction {
  uid: string;
  details: InteractionDetails;
  clientId: string;
  client: RegisteredClient | undefined;
  locale: Locale;
  /** `sheet` for an in-app browser tab: the request said display=touch, or the client is a mobile app. */
  layout: 'page' | 'sheet';
  /** How a code is sent when the deployment offers phone sign-in (src/phone/), for the login page's link. */
  phoneChannel?: 'sms' | 'whatsapp';
}

export async function loadInteraction(
  ctx: RouterContext,
  deps: Pick<InteractionDeps, 'config' | 'provider' | 'clients'>,
): Promise<LoadedInteraction> {
  const details = await deps.provider.interactionDetails(ctx.req, ctx.res);
  // The `lang` cookie is only ever set by the user's own click on the language switch: that explicit
  // choice wins over the application's ui_locales hint, or the switch would do nothing on these pages.
  const locale = localeFor(ctx, deps.config, chosenLanguage(ctx) ? undefined : stringParam(details.params.ui_locales));
  // Read by the error pages, should anything fail further on.
  ctx.state.locale = locale;
  // The cookie names the interaction of this browser: a URL for another one is stale or forged.
  if (details.uid !== ctx.params.uid) throw new errors.SessionNotFound('interaction uid mismatch');
  const clientId = stringParam(details.params.client_id) ?? '';
  const client = clientId ? await deps.clients.get(clientId) : undefined;
  const layout = details.params.display === 'touch' || client?.appType === 'mobile' ? 'sheet' : 'page';
  const phoneChannel = deps.config.phone?.enabled ? configuredChannel(deps.config.phone) : undefined;
  return { uid: details.uid, details, clientId, client, locale, layout, phoneChannel };
}

export function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Render options shared by every page of an interaction. */
export function pageOptions(interaction: LoadedInteraction, status = 200) {
  return {
    status,
    locale: interaction.locale,
    layout: interaction.layout,
    returnTo: `/interaction/${interaction.uid}`,
    // The "Afficher" button of the password fields (login, sign-up); the pages work without it.
    scripts: ['show-password.js'] as const,
  };
}

/**
 * Tells the engine the step is done: its 303 leads to the next step or the application itself.
 * `keepLogin`: the consent step keeps the login of the same request (its last submission), or a request
 * with `prompt=login` would ask to sign in again after the consent, and again.
 */
export async function finishStep(
  ctx: RouterContext,
  interaction: LoadedInteraction,
  result: InteractionResults,
  { keepLogin = false }: { keepLogin?: boolean } = {},
): Promise<void> {
  await finishInteraction(ctx.res, interaction.details, result, { mergeWithLastSubmission: keepLogin });
  ctx.respond = false;
}
