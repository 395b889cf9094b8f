// GET /fedcm/accounts: the account the browser's chooser offers. The browser shows its name, e-mail and
// username to the user only; the application learns nothing until the user continues and consents.
// `approved_clients` are the applications the user has already shared data with (their grants): for
// those the chooser says "continue", for the others it shows the application's privacy links first.
import type Koa from 'koa';
import { fedcmSignedOut } from '../pages/fedcm-login-status.ts';
import type { FedcmDeps } from './fedcm-deps.ts';
import { chooserSignIn } from './signed-in.ts';
import { fedcmError, fromBrowserChooser, json } from './webidentity.ts';

export function accountsEndpoint(deps: FedcmDeps): Koa.Middleware {
  return async function fedcmAccounts(ctx) {
    if (!fromBrowserChooser(ctx)) return fedcmError(ctx, 400, 'invalid_request');
    const signedIn = await chooserSignIn(ctx, deps);
    if (!signedIn) {
      // A cookie that names an ended session is cleared, and the browser hears it is signed out here.
      fedcmSignedOut(ctx, deps.config);
      return fedcmError(ctx, 401, 'access_denied');
    }
    const { account } = signedIn;
    const consents = await deps.consents.listForAccount(account.id);
    const approved = [...new Set(consents.map((consent) => consent.clientId))];
    const displayName = account.firstName || account.username || account.email;
    json(ctx, 200, {
      accounts: [
        {
          id: account.id,
          name: displayName,
          ...(account.firstName ? { given_name: account.firstName } : {}),
          email: account.email,
          ...(account.username ? { username: account.username } : {}),
          approved_clients: approved,
        },
      ],
    });
  };
}
