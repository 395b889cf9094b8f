// Tells the signed-in owner, by e-mail, that a new secret was generated for one of their applications or
// that one was deleted: in the language of the page they did it from, at the portal account's address.
// The action is done when this is called: the message is sent without holding the answer, and a mail
// server that fails is logged (by its error code only) without undoing or failing anything.
import type Koa from 'koa';
import type { RegisteredClient } from '../clients/registry.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { composeOwnerNotice, type OwnerNoticeKind } from './owner-notice-mail.ts';
import type { PortalDeps } from './portal-deps.ts';
import { stateOf } from './portal-request.ts';

export function notifyOwner(
  ctx: Koa.Context,
  deps: Pick<PortalDeps, 'config' | 'mail'>,
  kind: OwnerNoticeKind,
  client: Pick<RegisteredClient, 'name' | 'clientId'>,
  until?: Date,
): void {
  const { owner, locale } = stateOf(ctx);
  if (!owner) return;
  const { issuer, portal } = deps.config;
  const notice = {
    kind,
    app: { name: client.name, clientId: client.clientId },
    at: new Date(),
    until,
    links: { apps: `${issuer}${portal.path}/`, reset: `${issuer}/password/forgot` },
  };
  void deps.mail.sendComposed(locale, (brand) => composeOwnerNotice(notice, locale, owner, brand)).catch(logMailFailure);
}
