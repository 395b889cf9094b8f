// The portal's per-request state (set by state.ts) and the two things every page derives from it.
import type Koa from 'koa';
import type { Locale } from '../i18n/index.ts';
import type { PortalSession } from './portal-session.ts';

export interface PortalState {
  locale: Locale;
  mountPath: string;
  portalPath: string;
  session?: PortalSession;
  /** When the owner signed in to the service session the portal session belongs to (epoch milliseconds). */
  signedInAt?: number;
  /** The signed-in owner; the first name greets them in the notices the portal e-mails them. */
  owner?: { id: string; email: string; firstName: string };
  /** The parsed body of a form post, once its CSRF token has been checked. */
  form?: URLSearchParams;
}

/** What the portal's layout shows around every page. */
export interface PortalPage {
  locale: Locale;
  /** Where the service is mounted (koa-mount), '' at the root. */
  mountPath: string;
  portalPath: string;
  /** The signed-in owner, for the header; null on the public pages. */
  owner: { email: string; csrf: string } | null;
}

export const stateOf = (ctx: Koa.Context): PortalState => ctx.state.portal as PortalState;

/** Root of the portal's URLs as the browser sees them. */
export const rootOf = (ctx: Koa.Context): string => `${stateOf(ctx).mountPath}${stateOf(ctx).portalPath}`;

export function pageOf(ctx: Koa.Context): PortalPage {
  const state = ctx.state.portal as PortalState | undefined;
  const owner = state?.owner && state.session ? { email: state.owner.email, csrf: state.session.csrf } : null;
  return { locale: state?.locale ?? 'fr', mountPath: state?.mountPath ?? '', portalPath: state?.portalPath ?? '', owner };
}
