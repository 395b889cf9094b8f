// What every credentialed FedCM request must show, and how its answers are let through to the page that
// asked. The browser marks its own FedCM requests with `Sec-Fetch-Dest: webidentity`, a header no page can
// set: without it the request is a forgery (a page posting a form with the user's cookies) and is refused.
// The ID assertion and disconnect answers are read by the browser on behalf of the application's page, so
// they carry CORS headers for that page's exact origin, with credentials, and never `*`.
import type Koa from 'koa';

export const fromBrowserChooser = (ctx: Pick<Koa.Context, 'get'>): boolean => ctx.get('Sec-Fetch-Dest') === 'webidentity';

/** CORS for exactly `origin`, with credentials (the FedCM cookie came with the request). */
export function allowOrigin(ctx: Pick<Koa.Context, 'set' | 'vary'>, origin: string): void {
  ctx.vary('Origin');
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Access-Control-Allow-Credentials', 'true');
}

/** A JSON answer that no cache keeps (it depends on who is signed in). */
export function json(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = status;
  ctx.body = body;
}

/** The FedCM error shape (`{ error: { code, url } }`), which the browser hands to the application as an IdentityCredentialError. */
export function fedcmError(ctx: Koa.Context, status: number, code: string): void {
  json(ctx, status, { error: { code } });
}
