// The answer to a password attempt over the brute-force limits, wherever a password is typed (the
// sign-in page, the account page's sign-in, the password change): status 429, how long to wait in
// Retry-After, and the page again with the wait in words.
import type Koa from 'koa';
import type { MessageKey, MessageVars } from '../i18n/index.ts';

export interface PageMessage {
  key: MessageKey;
  vars?: MessageVars;
}

export async function answerTooManyAttempts(
  ctx: Pick<Koa.Context, 'set'>,
  retryAfterSeconds: number,
  showPage: (message: PageMessage, status: number) => Promise<void>,
): Promise<void> {
  ctx.set('Retry-After', String(retryAfterSeconds));
  await showPage({ key: 'login.error.tooMany', vars: { minutes: Math.ceil(retryAfterSeconds / 60) } }, 429);
}
