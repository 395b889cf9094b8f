// Embedding: the sign-in service inside an existing Koa application that has routes of its own and
// parses request bodies itself, mounted under /auth. The issuer carries the same path: every URL the
// service hands out (redirects, forms, links, cookies, assets, e-mailed links) then starts with /auth.
// Run with: npx tsx examples/embed-koa/main.ts  (then open http://localhost:4000/hello and /auth/account;
// PORT=4100 moves it, issuer included)
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import mount from 'koa-mount';
import { createSignInService, parseConfig } from '../../src/index.ts';

const PREFIX = '/auth';
const port = Number(process.env.PORT || 4000);
const config = parseConfig({
  issuer: `http://localhost:${port}${PREFIX}`,
  secrets: {
    cookieKeys: [process.env.SIGNIN_COOKIE_KEY ?? 'embed-example-cookie-key-change-me-000000'],
    pairwiseSalt: process.env.SIGNIN_PAIRWISE_SALT ?? 'embed-example-pairwise-salt-change-me-000',
  },
  storage: { kind: 'embedded', dataDir: './data/embed-example' },
  branding: {
    serviceName: 'Exemple · Connexion',
    links: [{ label: { fr: 'Mentions légales', en: 'Legal notice' }, url: 'https://example.org/mentions-legales' }],
  },
});

const signIn = await createSignInService(config);

const app = new Koa();
// The outer app must sign cookies with the same keys, or the engine's interaction cookies are lost.
app.keys = config.secrets.cookieKeys;
// A body parser for the host's own routes. The service reads the bodies it parsed (the stream is then
// spent), under its own rules.
app.use(bodyParser());
app.use(async (ctx, next) => {
  if (ctx.path === '/hello') {
    ctx.body = { hello: 'from the host application', discovery: `${config.issuer}/.well-known/openid-configuration` };
    return;
  }
  await next();
});
app.use(mount(PREFIX, signIn.app));

const server = app.listen(port, () => console.log(`host app with the sign-in service under http://localhost:${port}${PREFIX}`));
process.once('SIGINT', () => server.close(() => void signIn.close().then(() => process.exit(0))));
