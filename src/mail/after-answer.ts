// E-mail work that an answer must not wait for. The pages that take an address (sign-up, "mot de passe
// oublié", a new verification link) answer the same page whether or not the address is registered; only
// for a registered one is a link issued (a token written to the database), a message composed and sent,
// its owner told. Done before the answer, even without being awaited, that work delays it: an embedded
// store writes on the event loop the page is rendered on, and the mail server's exchange shares it too.
// So it starts once the answer has gone out, and both kinds of request spend the same time on the way
// to it. Its failure is logged (by its error code, as every mail failure), never lost silently.
import { AsyncResource } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { logMailFailure } from './account-mail.ts';

/**
 * Runs `work` once `ctx`'s answer has been handed to the network (or the client has gone: the e-mail is
 * still owed). Runs in the request's context, so that a failure is logged with its request id.
 */
export function mailAfterAnswer(ctx: { res: ServerResponse }, work: () => Promise<void>): void {
  const start = AsyncResource.bind(() => {
    // setImmediate: not inside the response's own event, whatever else listens to it.
    setImmediate(() => void Promise.resolve().then(work).catch(logMailFailure));
  });
  const { res } = ctx;
  if (res.writableFinished || res.destroyed) start();
  else res.once('close', start);
}
