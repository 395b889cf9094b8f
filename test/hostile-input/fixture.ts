// What the hostile requests are sent with, so that each bad value reaches the code that reads its field:
// a registered application, a browser halfway through a sign-in (the login form is live), a visitor
// holding the pages' anti-forgery token, a user signed in to the account page, and a portal owner.
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { csrfOf, signInToPortal } from '../portal/support.ts';
import type { TestClient, TestService } from '../support/service.ts';

export type Agent = ReturnType<typeof request.agent>;

export interface Fixture {
  url: string;
  client: TestClient;
  /** The authorization request parameters of `client`, all valid. */
  authorize: Record<string, string>;
  /** A browser on the login step of an authorization. */
  interaction: { agent: Agent; uid: string };
  /** A visitor with the anti-forgery cookie of the pages (account, password, e-mail links). */
  visitor: { agent: Agent; csrf: string };
  /** A user signed in to the account page. */
  account: { agent: Agent; csrf: string; password: string };
  /** An owner signed in to the portal. */
  owner: { agent: Agent; csrf: string };
}

export async function prepareFixture(svc: TestService): Promise<Fixture> {
  const client = await svc.createClient();
  const verifier = randomBytes(32).toString('base64url');
  const authorize = {
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };

  const interactionAgent = request.agent(svc.url);
  const started = await interactionAgent.get(`/oauth/authorize?${new URLSearchParams(authorize)}`).redirects(0);
  const uid = /\/interaction\/([^/?]+)$/.exec(String(started.headers.location))?.[1];
  if (!uid) throw new Error(`the authorization did not reach the login step: ${started.status} ${started.headers.location}`);

  const visitorAgent = request.agent(svc.url);
  const visitorCsrf = csrfOf((await visitorAgent.get('/account')).text);

  const user = await svc.createUser();
  const accountAgent = request.agent(svc.url);
  const accountCsrf = csrfOf((await accountAgent.get('/account')).text);
  const signedIn = await accountAgent
    .post('/account/login')
    .type('form')
    .send({ csrf: accountCsrf, email: user.email, password: user.password })
    .redirects(0);
  if (signedIn.status !== 303) throw new Error(`the account page sign-in failed: ${signedIn.status}`);

  const owner = await signInToPortal(svc);
  return {
    url: svc.url,
    client,
    authorize,
    interaction: { agent: interactionAgent, uid },
    visitor: { agent: visitorAgent, csrf: visitorCsrf },
    account: { agent: accountAgent, csrf: accountCsrf, password: user.password },
    owner: { agent: owner.browser.agent, csrf: csrfOf(owner.home.html) },
  };
}
