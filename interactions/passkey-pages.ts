// Passkeys on the sign-in pages: whether the deployment offers them, handed to the pages of a request
// (the login page is shown from several routes: the interaction, a refused password, a refused passkey).
import type Koa from 'koa';
import type { Passkeys } from '../src/passkeys/passkeys.ts';

/** Middleware of the sign-in pages: the passkeys of the deployment, for the pages of this request. */
export function withPasskeys(passkeys: Passkeys): Koa.Middleware {
  return async function passkeysOfPages(ctx, next) {
    (ctx.state as { passkeys?: Passkeys }).passkeys = passkeys;
    await next();
  };
}

/** The deployment's passkeys when it offers them, else undefined. */
export function passkeysOnPage(ctx: Pick<Koa.Context, 'state'>): Passkeys | undefined {
  const passkeys = (ctx.state as { passkeys?: Passkeys }).passkeys;
  return passkeys?.enabled ? passkeys : undefined;
}
