// Loads the engine's interaction for the uid in the URL, picks the page language and the layout.
import type { RouterContext } from '@koa/router';
import { errors } from 'oidc-provider';
import type { RegisteredClient } from '../src/clients/registry.ts';
import type { Locale } from '../src/i18n/index.ts';
import { LANG_COOKIE, localeFor } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';

export type InteractionDetails = Awaited<ReturnType<ServiceContext['provider']['interactionDetails']>>;

export interface LoadedInteraction {
  uid: string;
  details: InteractionDetails;
  clientId: string;
  client: RegisteredClient | undefined;
  locale: Locale;
  /** `sheet` for an in-app browser tab: the request said display=touch, or the client is a mobile app. */
  layout: 'page' | 'sheet';
}

export async function loadInteraction(ctx: RouterContext, context: ServiceContext): Promise<LoadedInteraction> {
  const details = await context.provider.interactionDetails(ctx.req, ctx.res);
  // The `lang` cookie is only ever set by the user's own click on the language switch: that explicit
  // choice wins over the application's ui_locales hint, or the switch would do nothing on these pages.
  const chosen = ctx.cookies.get(LANG_COOKIE, { signed: false });
  const locale = localeFor(ctx, context.config, chosen ? undefined : stringParam(details.params.ui_locales));
  // Read by the error pages, should anything fail further on.
  ctx.state.locale = locale;
  // The cookie names the interaction of this browser: a URL for another one is stale or forged.
  if (details.uid !== ctx.params.uid) throw new errors.SessionNotFound('interaction uid mismatch');
  const clientId = stringParam(details.params.client_id) ?? '';
  const client = clientId ? await context.clients.get(clientId) : undefined;
  const layout = details.params.display === 'touch' || client?.appType === 'mobile' ? 'sheet' : 'page';
  return { uid: details.uid, details, clientId, client, locale, layout };
}

export function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Render options shared by every page of an interaction. */
export function pageOptions(interaction: LoadedInteraction, status = 200) {
  return { status, locale: interaction.locale, layout: interaction.layout, returnTo: `/interaction/${interaction.uid}` };
}
