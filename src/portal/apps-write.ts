// The owner's form posts: register, edit, rotate the secret, delete. Each one redirects (303) to a
// page that shows the outcome once, so a reload never posts again and a secret never sits in a URL.
// A rotation and a deletion are also e-mailed to the owner (owner-notices.ts), and ask for a recent
// sign-in or the password again first (fresh-sign-in.ts).
import type Koa from 'koa';
import { isSecretOverlap } from '../clients/secret-overlap.ts';
import { ClientValidationError } from '../clients/validate.ts';
import { securityEvent } from '../log/security-log.ts';
import { fieldMessages, readAppForm, toClientInput, type AppFormValues } from './app-form.ts';
import { ownedApp, renderForm } from './apps-read.ts';
import { freshSignIn } from './fresh-sign-in.ts';
import { noticeTime } from './owner-notice-mail.ts';
import { notifyOwner } from './owner-notices.ts';
import { isPublicClient } from '../provider/client-metadata.ts';
import { notFound } from '../pages/page-errors.ts';
import type { PortalDeps } from './portal-deps.ts';
import { portalTranslator } from './portal-messages.ts';
import { rootOf, stateOf } from './portal-request.ts';

function seeOther(ctx: Koa.Context, path: string): void {
  ctx.status = 303;
  ctx.redirect(`${rootOf(ctx)}${path}`);
}

async function invalid(
  ctx: Koa.Context,
  error: ClientValidationError,
  page: { mode: 'new' | 'edit'; values: AppFormValues; deps: PortalDeps },
) {
  const errors = fieldMessages(error.errors, portalTranslator(stateOf(ctx).locale));
  const app = page.mode === 'edit' ? await ownedApp(ctx, page.deps) : undefined;
  await renderForm(ctx, { mode: page.mode, values: page.values, errors, app }, 400);
}

export function createApp(deps: PortalDeps): Koa.Middleware {
  return async function createPortalApp(ctx) {
    const { owner, form } = stateOf(ctx);
    const values = readAppForm(form!);
    try {
      const { client, clientSecret } = await deps.clients.create({ ...toClientInput(values), ownerId: owner!.id });
      securityEvent('application.created', { client_id: client.clientId, account_id: owner!.id, source: 'portal' });
      deps.flash.set(ctx, { accountId: owner!.id, notice: 'app.created', credentials: { clientId: client.clientId, clientSecret } });
      seeOther(ctx, `/apps/${client.clientId}`);
    } catch (error) {
      if (!(error instanceof ClientValidationError)) throw error;
      await invalid(ctx, error, { mode: 'new', values, deps });
    }
  };
}

export function updateApp(deps: PortalDeps): Koa.Middleware {
  return async function updatePortalApp(ctx) {
    const client = await ownedApp(ctx, deps);
    // The type is fixed at registration (the registry's update ignores it): keep showing the real one.
    const values = { ...readAppForm(stateOf(ctx).form!), appType: client.appType };
    const { appType: _fixed, ...patch } = toClientInput(values);
    try {
      await deps.clients.update(client.clientId, patch);
      securityEvent('application.changed', { client_id: client.clientId, account_id: stateOf(ctx).owner!.id, source: 'portal' });
      deps.flash.set(ctx, { accountId: stateOf(ctx).owner!.id, notice: 'app.updated' });
      seeOther(ctx, `/apps/${client.clientId}`);
    } catch (error) {
      if (!(error instanceof ClientValidationError)) throw error;
      await invalid(ctx, error, { mode: 'edit', values, deps });
    }
  };
}

export function rotateSecret(deps: PortalDeps): Koa.Middleware {
  return async function rotatePortalSecret(ctx) {
    const client = await ownedApp(ctx, deps);
    // A public application's secret is never used: there is nothing to rotate (apps-read.ts).
    if (isPublicClient(client)) throw notFound();
    if (!(await freshSignIn(ctx, deps, 'rotate', client))) return;
    // The overlap the owner chose keeps the old secret working for a rolling deployment; none by default.
    const chosen = stateOf(ctx).form?.get('overlap');
    const overlap = isSecretOverlap(chosen) ? chosen : 'none';
    // The registry tells its listeners, which drop the engine's cached copy: without an overlap, the old
    // secret fails at once.
    const clientSecret = await deps.clients.rotateSecret(client.clientId, overlap);
    if (clientSecret === undefined) throw notFound();
    securityEvent('application.secret_rotated', { client_id: client.clientId, account_id: stateOf(ctx).owner!.id, source: 'portal' });
    // The end of the overlap as stored, so that the notice, the page and the e-mail name the same minute.
    const until = overlap === 'none' ? undefined : (await deps.clients.get(client.clientId))?.previousSecret?.expiresAt;
    notifyOwner(ctx, deps, until ? 'rotatedOverlap' : 'rotated', client, until);
    deps.flash.set(ctx, {
      accountId: stateOf(ctx).owner!.id,
      notice: until ? 'app.rotatedOverlap' : 'app.rotated',
      ...(until ? { noticeVars: { until: noticeTime(until, stateOf(ctx).locale) } } : {}),
      credentials: { clientId: client.clientId, clientSecret },
    });
    seeOther(ctx, `/apps/${client.clientId}`);
  };
}

export function deleteApp(deps: PortalDeps): Koa.Middleware {
  return async function deletePortalApp(ctx) {
    const client = await ownedApp(ctx, deps);
    if (!(await freshSignIn(ctx, deps, 'delete', client))) return;
    // The service revokes every grant and token of a deleted client (a registry listener in service.ts).
    if (!(await deps.clients.delete(client.clientId))) throw notFound();
    securityEvent('application.deleted', { client_id: client.clientId, account_id: stateOf(ctx).owner!.id, source: 'portal' });
    notifyOwner(ctx, deps, 'deleted', client);
    deps.flash.set(ctx, { accountId: stateOf(ctx).owner!.id, notice: 'delete.deleted', noticeVars: { name: client.name } });
    seeOther(ctx, '/');
  };
}
