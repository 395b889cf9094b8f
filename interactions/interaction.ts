// Loads the engine's interaction for the uid in the URL and picks the page language.
import type { RouterContext } from '@koa/router';
import { errors } from 'oidc-provider';
import type { Locale } from '../src/i18n/index.ts';
import { localeFor } from '../src/pages/render.ts';
import type { ServiceContext } from '../src/service-context.ts';

export type InteractionDetails = Awaited<ReturnType<ServiceContext['provider']['interactionDetails']>>;

export interface LoadedInteraction {
  uid: string;
  details: InteractionDetails;
  clientId: string;
  locale: Locale;
}

export async function loadInteraction(ctx: RouterContext, context: ServiceContext): Promise<LoadedInteraction> {
  const details = await context.provider.interactionDetails(ctx.req, ctx.res);
  const locale = localeFor(ctx, context.config, stringParam(details.params.ui_locales));
  // Read by the error pages, should anything fail further on.
  ctx.state.locale = locale;
  // The cookie names the interaction of this browser: a URL for another one is stale or forged.
  if (details.uid !== ctx.params.uid) throw new errors.SessionNotFound('interaction uid mismatch');
  return { uid: details.uid, details, clientId: stringParam(details.params.client_id) ?? '', locale };
}

export function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
