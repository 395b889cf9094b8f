// Response headers of every HTML page the service renders (interactions, engine errors, logout, the
// account page, the portal).
import type Koa from 'koa';

/**
 * No script at all, styles only from our own stylesheet, and no framing.
 *
 * `form-action` is deliberately absent. Browsers that enforce it (Chromium) also check every redirect
 * that follows a form submission, and our consent, login and logout forms end in a 303 to the
 * application's own redirect URI: an https or http URL, or a custom scheme for a mobile app
 * (`com.example.app:/callback`) that no static source list can name. Restricting it would break
 * sign-in for exactly those apps, while the pages contain no injected markup for it to guard against
 * (every value is escaped and inline script is already forbidden).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The policy of a page that carries one of our own scripts (the "Afficher" button of password fields):
 * the same, plus scripts from the service's own files. Never inline script: an injected tag still runs nothing.
 */
export const SCRIPTED_PAGE_POLICY = `${CONTENT_SECURITY_POLICY}; script-src 'self'`;

/** A page whose script asks the service for a passkey ceremony's options: it may also fetch from the service itself. */
export const PASSKEY_PAGE_POLICY = `${SCRIPTED_PAGE_POLICY}; connect-src 'self'`;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Pages carry one-time interaction state and personal data: never from a cache, never in history.
  'Cache-Control': 'no-store',
};

/** The page headers; a face that needs more than the default policy (the portal's script) passes its own. */
export function setSecurityHeaders(ctx: Pick<Koa.Context, 'set'>, contentSecurityPolicy = CONTENT_SECURITY_POLICY): void {
  ctx.set({ ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy });
}
