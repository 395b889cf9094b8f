// A Node.js web application with openid-client 6 (a certified relying-party library): a complete
// program on node:http alone, so that it runs as pasted. It sends `state` itself: openid-client's
// quick start leaves it out when the server supports PKCE, and the service requires it.
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { quoted, type HelpValues } from './help-values.ts';

export function nodeWebAppSection(values: HelpValues): HelpSection {
  return {
    id: 'help-section-node',
    title: 'help.node.title',
    intro: 'help.node.intro',
    blocks: [{ id: 'help-node', note: STATE_NOTE, lang: 'javascript', code: nodeWebApp(values) }],
  };
}

function nodeWebApp(v: HelpValues): string {
  const discoveryOptions = v.insecureIssuer
    ? ',\n  { execute: [client.allowInsecureRequests] }, // a development issuer over http only'
    : ',';
  const callbackPath = URL.parse(v.redirectUri)?.pathname ?? '/callback';
  return `// npm install openid-client   (Node.js 20 or later), save as app.mjs
// CLIENT_SECRET=your-secret node app.mjs, then open http://localhost:3000/login
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as client from 'openid-client';

const redirectUri = ${quoted(v.redirectUri)};
const config = await client.discovery(
  new URL(${quoted(v.issuer)}),
  ${quoted(v.clientId)},
  undefined,
  client.ClientSecretPost(process.env.CLIENT_SECRET)${discoveryOptions}
);
const sessions = new Map(); // per browser: the checks of a sign-in, then its ID token

createServer(async (req, res) => {
  const sid = /(?:^|;\\s*)sid=(\\w+)/.exec(req.headers.cookie ?? '')?.[1];
  const path = new URL(req.url, redirectUri).pathname;
  try {
    if (path === '/login') {
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState(); // required: checked when the user comes back
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: ${quoted(v.scopes.join(' '))},
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      const id = randomBytes(16).toString('hex');
      sessions.set(id, { state, codeVerifier });
      // Add Secure to the cookie once the application is served over https.
      res.writeHead(302, { location: url.href, 'set-cookie': \`sid=\${id}; HttpOnly; SameSite=Lax; Path=/\` }).end();
    } else if (path === ${quoted(callbackPath)}) {
      const checks = sessions.get(sid);
      if (!checks?.state) return void res.writeHead(400).end('no sign-in in progress');
      // The URL the service sent the browser to: the redirect URI with the code and state.
      const tokens = await client.authorizationCodeGrant(config, new URL(req.url, redirectUri), {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
      });
      sessions.set(sid, { idToken: tokens.id_token });
      const { sub } = tokens.claims(); // the ID token names the user (sub); the rest comes from userinfo
      const user = await client.fetchUserInfo(config, tokens.access_token, sub);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(user));
    } else if (path === '/logout') {
      const idToken = sessions.get(sid)?.idToken;
      sessions.delete(sid);
      const url = client.buildEndSessionUrl(config, {
        post_logout_redirect_uri: redirectUri,
        ...(idToken ? { id_token_hint: idToken } : {}),
      });
      res.writeHead(302, { location: url.href }).end();
    } else {
      res.writeHead(404).end();
    }
  } catch (error) {
    res.writeHead(400).end(String(error.error_description ?? error.message));
  }
}).listen(Number(process.env.PORT ?? 3000), () => console.log('listening'));`;
}
