// A small application that signs its users in through the service with the PKCE flow, using
// openid-client. On your machine it listens on http://localhost:5000 (PORT moves it; ISSUER names the
// service, by default http://localhost:3000, which `PORT=4900 npm start` moves to :4900), which only a single-page or mobile
// application may register (a web application's redirect URI is https), so register it as a public
// client, with no secret:
//   npm run signin -- client create --name "Exemple" --description "Application d'exemple" \
//     --type spa --redirect-uri http://localhost:5000/callback --scopes "openid email profile"
// then: CLIENT_ID=... npx tsx examples/relying-party/main.ts  and open http://localhost:5000
// Deployed behind https as a web application, set REDIRECT_URI to its registered https address and
// CLIENT_SECRET to its secret: the same code then authenticates with the secret.
import { createServer } from 'node:http';
import * as oidc from 'openid-client';

const issuer = new URL(process.env.ISSUER ?? 'http://localhost:3000');
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET;
if (!clientId) {
  console.error('set CLIENT_ID (and CLIENT_SECRET for a web application), from `npm run signin -- client create ...`');
  process.exit(2);
}
const port = Number(process.env.PORT || 5000);
const redirectUri = process.env.REDIRECT_URI ?? `http://localhost:${port}/callback`;
const config = await oidc.discovery(issuer, clientId, undefined, clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(), {
  execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
});

// One pending sign-in per browser, keyed by a random cookie; enough for an example.
const pending = new Map<string, { verifier: string; state: string }>();

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://localhost:${port}`);
  try {
    if (url.pathname === '/') {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const id = oidc.randomState();
      pending.set(id, { verifier, state });
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `rp=${id}; HttpOnly; SameSite=Lax; Path=/` });
      res.end(`<!doctype html><meta charset="utf-8"><title>Exemple</title><a href="${escape(target.href)}">Se connecter</a>`);
      return;
    }
    if (url.pathname === '/callback') {
      const id = /(?:^|;\s*)rp=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
      const checks = pending.get(id);
      pending.delete(id);
      if (!checks) throw new Error('no sign-in in progress in this browser');
      const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: checks.verifier, expectedState: checks.state });
      const profile = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><meta charset="utf-8"><title>Connecté</title><h1>Bonjour ${escape(String(profile.first_name ?? ''))}</h1><pre>${escape(JSON.stringify(profile, null, 2))}</pre>`,
      );
      return;
    }
    res.writeHead(404).end();
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}).listen(port, () => console.log(`relying party on http://localhost:${port}`));
