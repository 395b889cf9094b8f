// The path the issuer carries ('' at the root, '/auth' for https://example.org/auth): where the service
// is mounted as the browser sees it. Every URL the service writes for a browser starts with it (the
// engine's interaction URL, cookie paths); the pages themselves follow koa-mount's `ctx.mountPath`,
// which is the same prefix when the service is mounted where its issuer says.
export function issuerPath(issuer: string): string {
  return new URL(issuer).pathname.replace(/\/+$/, '');
}

/** The cookie path of the whole service: its prefix, or `/` at the root. */
export const serviceCookiePath = (issuer: string): string => issuerPath(issuer) || '/';
