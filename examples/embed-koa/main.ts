// Embedding: the sign-in service inside an existing Koa application that has routes of its own.
// Run with: npx tsx examples/embed-koa/main.ts  (then open http://localhost:4000/hello)
import Koa from 'koa';
import mount from 'koa-mount';
import { createSignInService, parseConfig } from '../../src/index.ts';

const config = parseConfig({
  issuer: 'http://localhost:4000',
  secrets: {
    cookieKeys: [process.env.SIGNIN_COOKIE_KEY ?? 'embed-example-cookie-key-change-me-000000'],
    pairwiseSalt: process.env.SIGNIN_PAIRWISE_SALT ?? 'embed-example-pairwise-salt-change-me-000',
  },
  storage: { kind: 'embedded', dataDir: './data/embed-example' },
});

const signIn = await createSignInService(config);

const app = new Koa();
// The outer app must sign cookies with the same keys, or the engine's interaction cookies are lost.
app.keys = config.secrets.cookieKeys;
app.use(async (ctx, next) => {
  if (ctx.path === '/hello') {
    ctx.body = { hello: 'from the host application', discovery: `${config.issuer}/.well-known/openid-configuration` };
    return;
  }
  await next();
});
app.use(mount(signIn.app));

const server = app.listen(4000, () => console.log('host app with the sign-in service on http://localhost:4000'));
process.once('SIGINT', () => server.close(() => void signIn.close().then(() => process.exit(0))));
