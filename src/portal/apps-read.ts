// The owner's pages that only read: the list of their applications, one application with its
// integration help (and, once, its new secret), the forms to register, edit or delete, and the
// confirmation asked before a new secret replaces the current one (both with the password field when the
// sign-in is not recent, fresh-sign-in.ts).
import type Koa from 'koa';
import type { RegisteredClient } from '../clients/registry.ts';
import { EMPTY_FORM, FORM_CHOICES, formOf, type AppFormValues, type FieldMessages } from './app-form.ts';
import { notFound } from '../pages/page-errors.ts';
import { renderConfirmation } from './fresh-sign-in.ts';
import { integrationHelp } from './integration.ts';
import { noticeTime } from './owner-notice-mail.ts';
import { isPublicClient } from '../provider/client-metadata.ts';
import { livePreviousSecret } from '../clients/secret-overlap.ts';
import type { Locale } from '../i18n/index.ts';
import type { PortalDeps } from './portal-deps.ts';
import { renderPortal } from './portal-page.ts';
import { pageOf, stateOf } from './portal-request.ts';

/** The application in the URL, if it belongs to the signed-in owner; anyone else's is a plain 404. */
export async function ownedApp(ctx: Koa.Context, deps: PortalDeps): Promise<RegisteredClient> {
  const owner = stateOf(ctx).owner;
  const id = (ctx as Koa.Context & { params?: Record<string, string> }).params?.id ?? '';
  const client = owner ? await deps.clients.get(id) : undefined;
  if (!client || !owner || client.ownerId !== owner.id) throw notFound();
  return client;
}

export function home(deps: PortalDeps): Koa.Middleware {
  return async function portalHome(ctx) {
    const { owner } = stateOf(ctx);
    if (!owner) return renderPortal(ctx, pageOf(ctx), 'home', { failed: false });
    const apps = await deps.clients.list(owner.id);
    const flash = deps.flash.take(ctx, owner.id);
    await renderPortal(ctx, pageOf(ctx), 'apps', { apps, notice: flash ? { key: flash.notice, vars: flash.noticeVars } : null });
  };
}

export function showApp(deps: PortalDeps): Koa.Middleware {
  return async function showPortalApp(ctx) {
    const client = await ownedApp(ctx, deps);
    const flash = deps.flash.take(ctx, stateOf(ctx).owner!.id);
    const credentials = flash?.credentials?.clientId === client.clientId ? flash.credentials : null;
    await renderPortal(ctx, pageOf(ctx), 'app', {
      app: client,
      notice: flash ? { key: flash.notice, vars: flash.noticeVars } : null,
      credentials,
      // The secret a rotation replaced, while its overlap lasts: shown so the owner knows when it stops.
      previousSecretUntil: previousUntil(client, stateOf(ctx).locale),
      help: integrationHelp(deps.config.issuer, client),
    });
  };
}

export interface FormPage {
  mode: 'new' | 'edit';
  values: AppFormValues;
  errors?: FieldMessages;
  app?: RegisteredClient;
}

export async function renderForm(ctx: Koa.Context, page: FormPage, status = 200): Promise<void> {
  await renderPortal(
    ctx,
    pageOf(ctx),
    'form',
    { ...page, errors: page.errors ?? {}, app: page.app ?? null, choices: FORM_CHOICES },
    status,
  );
}

export function newAppForm(): Koa.Middleware {
  return async function newPortalApp(ctx) {
    await renderForm(ctx, { mode: 'new', values: EMPTY_FORM });
  };
}

export function editAppForm(deps: PortalDeps): Koa.Middleware {
  return async function editPortalApp(ctx) {
    const client = await ownedApp(ctx, deps);
    await renderForm(ctx, { mode: 'edit', values: formOf(client), app: client });
  };
}

export function confirmDelete(deps: PortalDeps): Koa.Middleware {
  return async function confirmPortalDelete(ctx) {
    await renderConfirmation(ctx, 'delete', await ownedApp(ctx, deps));
  };
}

/** Asked before a new secret is generated: the current one stops working at once, on every server using it. */
export function confirmRotate(deps: PortalDeps): Koa.Middleware {
  return async function confirmPortalRotate(ctx) {
    const client = await ownedApp(ctx, deps);
    // A public application (PKCE alone) never sends its secret: no rotation is offered for it.
    if (isPublicClient(client)) throw notFound();
    await renderConfirmation(ctx, 'rotate', client);
  };
}

/** When the secret the last rotation replaced stops working, in the owner's language; null when it already has. */
function previousUntil(client: RegisteredClient, locale: Locale): string | null {
  const previous = livePreviousSecret(client.previousSecret);
  return previous ? noticeTime(previous.expiresAt, locale) : null;
}
