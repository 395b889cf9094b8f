// Compression of what a browser loads: the pages (ours and the engine's), stylesheets, scripts and SVG, in
// the encoding the browser prefers among zstd, brotli and gzip (koa-compress, which also answers
// `Vary: Accept-Encoding`). On a slow mobile link a page's bytes are most of its wait. The static files
// arrive compressed already, once for the life of the process (src/pages/assets.ts): they are passed on as
// they are, and so is anything a proxy in front or an embedding app has encoded.
//
// Not the engine's JSON: its readers are servers on good links, the token and userinfo answers are the hot
// paths, and they carry tokens.
//
// BREACH: a compressed response's length tells an attacker who can make the browser send requests and
// watch the encrypted sizes whether a guess of theirs, reflected in the page, matches a secret on the same
// page. Our pages reflect their own URL, query included (the language switch returns to it), so a page that
// carries a secret which stays the same from one response to the next is never compressed: the form
// tokens, ours (src/pages/anti-forgery.ts: the account page, the e-mail links, the password pages, every
// page of the portal) and the engine's sign-out one (`xsrf`). Masking the token anew in each response was
// the other way; it protects the token only, not what those same pages show beside it (a new client secret,
// an account's address). The sign-in steps, the pages a slow link waits on, carry neither: their forms are
// bound to the interaction's cookie instead, and the interaction id in them is new with each authorization.
// docs/architecture/decisions.md records the choice.
import { constants as zlibConstants } from 'node:zlib';
import compress from 'koa-compress';
import compose from 'koa-compose';
import type Koa from 'koa';
import { CSRF_FIELD } from '../pages/anti-forgery.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

/** What is compressed: what a browser renders or runs. */
const COMPRESSED_TYPES = /^(?:text\/(?:html|css|javascript)|application\/javascript|image\/svg\+xml)(?:;|$)/i;

/** The hidden fields whose value is a secret kept from one response to the next: ours, and the engine's sign-out form's. */
const SECRET_FIELDS = [CSRF_FIELD, 'xsrf'].map((name) => `name="${name}"`);

/** True when the page (an HTML body) carries a form secret, or cannot be read to tell. */
export function carriesFormSecret(body: unknown): boolean {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return SECRET_FIELDS.some((field) => body.includes(field));
  return body != null;
}

/**
 * Marks a page that carries a form secret as not to be compressed: for koa-compress here and in an embedding
 * app (`ctx.compress`), and for a proxy or CDN that honours `Cache-Control: no-transform`.
 */
function keepSecretsUncompressed(): Koa.Middleware {
  return async function keepPagesWithSecretsUncompressed(ctx, next) {
    await next();
    if (ctx.compress === true || !ctx.response.is('html') || !carriesFormSecret(ctx.body)) return;
    ctx.compress = false;
    const cacheControl = ctx.response.get('Cache-Control');
    ctx.set('Cache-Control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform');
  };
}

export function compression(): Koa.Middleware {
  const compressed = compose([
    compress({
      filter: (type) => COMPRESSED_TYPES.test(type),
      // Below a kilobyte the headers weigh more than what would be saved.
      threshold: 1024,
      // What the browser asks for when it asks for nothing particular.
      defaultEncoding: 'identity',
      // Pages are compressed as they are made: a fast setting, within a few per cent of the best.
      br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
      gzip: { level: 6 },
    }),
    keepSecretsUncompressed(),
  ]);
  // The engine's JSON endpoints (token, userinfo, revocation, JWKS, discovery...) are never compressed:
  // they skip the middleware altogether, which costs the hot paths a few microseconds a call otherwise.
  return function compressBrowserAnswers(ctx, next) {
    return isEnginePath(ctx.path) && protocolEndpoint(ctx.path)?.kind === 'api' ? next() : compressed(ctx, next);
  };
}
